import { describe, expect, it } from 'vitest';
import { checkPreCall, type CallContext } from './check-pre-call';
import type { ErrorCode } from './error-codes';
import { primaryErrorEnvelope } from '@toolgate/sdk/core';
import { callerContext, compileOrThrow, kitchenSinkContract, validArgs } from './test-contracts';

const contract = compileOrThrow(kitchenSinkContract);

type Case = {
  code: ErrorCode;
  type: string;
  path?: string;
  args: Record<string, unknown>;
  twin: Record<string, unknown>;
  context?: CallContext;
};

// Each case makes one code fire, and a near-twin input that differs minimally must not.
const CASES: Case[] = [
  { code: 'AXAG_MISSING_PARAM', type: 'parameter_error', path: '$.name', args: { ...validArgs, name: undefined }, twin: validArgs },
  {
    code: 'AXAG_MISSING_PARAM',
    type: 'parameter_error',
    path: '$.name',
    args: { ...validArgs, name: null },
    twin: { ...validArgs, name: 'Al' },
  },
  {
    code: 'AXAG_INVALID_TYPE',
    type: 'parameter_error',
    path: '$.quantity',
    args: { ...validArgs, quantity: '3' },
    twin: { ...validArgs, quantity: 3 },
  },
  {
    code: 'AXAG_OUT_OF_RANGE',
    type: 'constraint_error',
    path: '$.quantity',
    args: { ...validArgs, quantity: 11 },
    twin: { ...validArgs, quantity: 9 },
  },
  {
    code: 'AXAG_INVALID_ENUM',
    type: 'constraint_error',
    path: '$.color',
    args: { ...validArgs, color: 'blue' },
    twin: { ...validArgs, color: 'red' },
  },
  {
    code: 'AXAG_INVALID_FORMAT',
    type: 'constraint_error',
    path: '$.email',
    args: { ...validArgs, email: 'not-an-email' },
    twin: { ...validArgs, email: 'a@b.co' },
  },
  {
    code: 'AXAG_PATTERN_MISMATCH',
    type: 'constraint_error',
    path: '$.sku',
    args: { ...validArgs, sku: 'ab-1234' },
    twin: { ...validArgs, sku: 'ABC-1234' },
  },
  {
    code: 'AXAG_INVALID_LENGTH',
    type: 'constraint_error',
    path: '$.name',
    args: { ...validArgs, name: 'A' },
    twin: { ...validArgs, name: 'Al' },
  },
  {
    code: 'AXAG_UNKNOWN_PARAM',
    type: 'parameter_error',
    path: '$.colour',
    args: { ...validArgs, colour: 'red' },
    twin: { ...validArgs, color: 'red' },
  },
  {
    code: 'AXAG_CONSTRAINT_VIOLATION',
    type: 'constraint_error',
    path: '$.step',
    args: { ...validArgs, step: 7 },
    twin: { ...validArgs, step: 10 },
  },
  {
    code: 'AXAG_PRECONDITION_FAILED',
    type: 'precondition_error',
    args: { ...validArgs, quantity: 10 },
    twin: { ...validArgs, quantity: 9 },
  },
  { code: 'AXAG_TENANT_BOUNDARY', type: 'security_error', path: '$.tenant_id', args: { ...validArgs, tenant_id: 't2' }, twin: validArgs },
  { code: 'AXAG_SCOPE_VIOLATION', type: 'security_error', path: '$.user_id', args: { ...validArgs, user_id: 'u2' }, twin: validArgs },
  {
    code: 'AXAG_ROLE_INSUFFICIENT',
    type: 'authorization_error',
    args: validArgs,
    twin: validArgs,
    context: { ...callerContext, roles: ['viewer'] },
  },
];

describe('checkPreCall: every code fires, and its near twin does not', () => {
  for (const testCase of CASES) {
    it(`${testCase.code}${testCase.path ? ` at ${testCase.path}` : ''}`, () => {
      const args = JSON.parse(JSON.stringify(testCase.args)) as Record<string, unknown>;
      const fired = checkPreCall({ contract, arguments: args, context: testCase.context ?? callerContext });
      expect(fired.errors.map((e) => e.code)).toEqual([testCase.code]);
      expect(fired.errors[0]).toMatchObject({ code: testCase.code, type: testCase.type, details: { intent: 'test.kitchen_sink' } });
      if (testCase.path) expect(fired.errors[0]?.path).toBe(testCase.path);
      const twin = checkPreCall({ contract, arguments: testCase.twin, context: callerContext });
      expect(twin).toEqual({ errors: [], warnings: [] });
    });
  }
});

describe('checkPreCall details', () => {
  it('names the field and the limit in messages', () => {
    const { errors } = checkPreCall({ contract, arguments: { ...validArgs, quantity: 12 }, context: callerContext });
    expect(errors[0]).toMatchObject({
      message: 'quantity must be <= 10, got 12',
      details: { constraint: { keyword: 'maximum', limit: 10 } },
    });
  });

  it('reports nested paths and null-present required fields', () => {
    const { errors } = checkPreCall({ contract, arguments: { ...validArgs, items: [{ sku: 'a' }, {}] }, context: callerContext });
    expect(errors).toMatchObject([{ code: 'AXAG_MISSING_PARAM', path: '$.items[1].sku' }]);
    const nullable = checkPreCall({ contract, arguments: { ...validArgs, note: null }, context: callerContext });
    expect(nullable.errors).toEqual([]);
  });

  it('precondition failures carry the seed envelope fields', () => {
    const context = { ...callerContext, state: { blocked: true } };
    const { errors } = checkPreCall({ contract, arguments: validArgs, context });
    expect(errors).toEqual([
      {
        code: 'AXAG_PRECONDITION_FAILED',
        type: 'precondition_error',
        message: 'Precondition not met: the account must not be blocked',
        path: '$',
        details: {
          intent: 'test.kitchen_sink',
          failed_precondition: 'the account must not be blocked',
          suggestion: 'Ask support to unblock the account',
          condition_id: 'not_blocked',
        },
      },
    ]);
  });

  it('fails closed when a precondition cannot be evaluated', () => {
    const { errors } = checkPreCall({ contract, arguments: validArgs, context: { ...callerContext, state: undefined } });
    expect(errors).toMatchObject([
      { code: 'AXAG_PRECONDITION_FAILED', details: { condition_id: 'not_blocked', evaluation_error: expect.stringMatching(/state/) } },
    ]);
  });

  it('skips preconditions when the input schema fails', () => {
    const { errors } = checkPreCall({ contract, arguments: { ...validArgs, quantity: 10, name: 1 }, context: callerContext });
    expect(errors.map((e) => e.code)).toEqual(['AXAG_INVALID_TYPE']);
  });

  it('treats a missing tenant or user context as a boundary violation', () => {
    const { errors } = checkPreCall({ contract, arguments: validArgs, context: { roles: ['admin'], state: {} } });
    expect(errors.map((e) => e.code)).toEqual(['AXAG_TENANT_BOUNDARY', 'AXAG_SCOPE_VIOLATION']);
  });

  it('reports in the documented order (preconditions, tenant, scope, roles), so the primary error is the first of them', () => {
    // docs/runtime-api.md: "validate/pre checks, in order: ... the preconditions; the tenant
    // boundary and scope; the caller's roles"; the AXAG seed checks preconditions before execution
    // and the scope boundary at execution time.
    const context = { tenant_id: 'other', user_id: 'u2', roles: ['guest'], state: { blocked: true } };
    const { errors } = checkPreCall({ contract, arguments: validArgs, context });
    expect(errors.map((e) => e.code)).toEqual([
      'AXAG_PRECONDITION_FAILED',
      'AXAG_TENANT_BOUNDARY',
      'AXAG_SCOPE_VIOLATION',
      'AXAG_ROLE_INSUFFICIENT',
    ]);
    expect(primaryErrorEnvelope('test.kitchen_sink', errors)?.error).toMatchObject({
      code: 'AXAG_VALIDATION_ERROR',
      type: 'precondition_failed',
      details: { code: 'AXAG_PRECONDITION_FAILED', failed_precondition: 'the account must not be blocked' },
    });
    const noRole = checkPreCall({ contract, arguments: validArgs, context: { ...context, state: {} } });
    expect(noRole.errors.map((e) => e.code)).toEqual(['AXAG_TENANT_BOUNDARY', 'AXAG_SCOPE_VIOLATION', 'AXAG_ROLE_INSUFFICIENT']);
  });

  it('warns on deprecated contracts (AXAG_CONTRACT_DEPRECATED) and not otherwise', () => {
    const deprecated = compileOrThrow({
      ...kitchenSinkContract,
      deprecated: { message: 'use v2', replacement: 'test.kitchen_sink_v2' },
    });
    const result = checkPreCall({ contract: deprecated, arguments: validArgs, context: callerContext });
    expect(result.errors).toEqual([]);
    expect(result.warnings).toMatchObject([
      { code: 'AXAG_CONTRACT_DEPRECATED', type: 'deprecation_warning', details: { replacement: 'test.kitchen_sink_v2' } },
    ]);
    const flagged = compileOrThrow({ ...kitchenSinkContract, deprecated: true });
    expect(checkPreCall({ contract: flagged, arguments: validArgs, context: callerContext }).warnings).toHaveLength(1);
    const notDeprecated = compileOrThrow({ ...kitchenSinkContract, deprecated: false });
    expect(checkPreCall({ contract: notDeprecated, arguments: validArgs, context: callerContext }).warnings).toEqual([]);
  });

  it('evaluates preconditions on __proto__ arguments without pollution', () => {
    const open = compileOrThrow({
      ...kitchenSinkContract,
      input: { type: 'object' },
      scope: undefined,
      preconditions: [{ id: 'p', expression: 'args.__proto__.polluted == true', message: 'm' }],
    });
    const args = JSON.parse('{"__proto__": {"polluted": true}}') as unknown;
    expect(checkPreCall({ contract: open, arguments: args, context: callerContext }).errors).toEqual([]);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});
