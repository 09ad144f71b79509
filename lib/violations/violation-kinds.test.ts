import { describe, expect, it } from 'vitest';
import { ERROR_CODES, type ErrorCode } from '../validation/error-codes';
import {
  APPROVAL_HOLD_CODES,
  codesByKind,
  isViolationKind,
  POLICY_REFUSAL_CODES,
  TOOL_FAILURE_CODES,
  violationKind,
} from './violation-kinds';

const deny = (code: string) => violationKind({ code, decision: 'deny' });

describe('violationKind', () => {
  it('files what the agent sent under agent mistakes: parameters, types, constraints, preconditions, unknown tools, confirmations', () => {
    for (const code of [
      'AXAG_MISSING_PARAM',
      'AXAG_INVALID_TYPE',
      'AXAG_UNKNOWN_PARAM',
      'AXAG_OUT_OF_RANGE',
      'AXAG_INVALID_ENUM',
      'AXAG_PATTERN_MISMATCH',
      'AXAG_PRECONDITION_FAILED',
      'AXAG_UNKNOWN_TOOL',
      'AXAG_VERSION_NOT_FOUND',
      'AXAG_NUMBER_UNREPRESENTABLE',
      'AXAG_CONFIRMATION_MISSING',
      'AXAG_APPROVAL_INVALID',
    ])
      expect(deny(code), code).toBe('arguments');
  });

  it('files rules the tenant set under policy refusals: policies, rate limits, budgets, scopes, roles, a denied approval', () => {
    for (const code of [
      'AXAG_POLICY_DENIED',
      'AXAG_RATE_LIMITED',
      'AXAG_BUDGET_EXCEEDED',
      'AXAG_TOOL_NOT_ALLOWED',
      'AXAG_SIDE_EFFECT_CEILING',
      'AXAG_ARGUMENT_NOT_ALLOWED',
      'AXAG_SCOPE_VIOLATION',
      'AXAG_ROLE_INSUFFICIENT',
      'AXAG_APPROVAL_DENIED',
    ])
      expect(deny(code), code).toBe('policy');
  });

  it('files what validate/post finds under tool failures', () => {
    for (const code of ['AXAG_OUTPUT_MISMATCH', 'AXAG_POSTCONDITION_FAILED', 'AXAG_SIDE_EFFECT_MISSING', 'AXAG_ERROR_SCHEMA_MISMATCH'])
      expect(deny(code), code).toBe('tool');
  });

  it('files a held call under approval holds, and the same code on a denied call by what else was wrong', () => {
    expect(violationKind({ code: 'AXAG_APPROVAL_MISSING', decision: 'require_approval' })).toBe('approval');
    expect(violationKind({ code: 'AXAG_ESCALATION_REQUIRED', decision: 'escalate' })).toBe('approval');
    // Whatever the code, a held call's violations are holds.
    expect(violationKind({ code: 'AXAG_RATE_LIMITED', decision: 'require_approval' })).toBe('approval');
    expect(deny('AXAG_APPROVAL_MISSING')).toBe('arguments');
  });

  it('files a code this version does not know under agent mistakes', () => {
    expect(deny('AXAG_FROM_THE_FUTURE')).toBe('arguments');
  });

  it('knows every kind and nothing else', () => {
    expect(isViolationKind('policy')).toBe(true);
    expect(isViolationKind('Policy')).toBe(false);
    expect(isViolationKind(undefined)).toBe(false);
  });
});

describe('the code lists the SQL filters and counts use', () => {
  it('agree with violationKind for every known code', () => {
    for (const code of Object.keys(ERROR_CODES) as ErrorCode[]) {
      const kind = deny(code);
      expect(TOOL_FAILURE_CODES.includes(code), code).toBe(kind === 'tool');
      expect(POLICY_REFUSAL_CODES.includes(code), code).toBe(kind === 'policy');
    }
  });

  it('group every known code once, holds under approval holds', () => {
    const groups = codesByKind();
    expect(groups.map((g) => g.kind)).toEqual(['arguments', 'policy', 'approval', 'tool']);
    const all = groups.flatMap((g) => g.codes);
    expect(all.sort()).toEqual(Object.keys(ERROR_CODES).sort());
    expect(groups.find((g) => g.kind === 'approval')?.codes).toEqual([...APPROVAL_HOLD_CODES].sort());
    expect(groups.find((g) => g.kind === 'policy')?.codes).toContain('AXAG_BUDGET_EXCEEDED');
  });
});
