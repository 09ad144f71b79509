import { describe, expect, it } from 'vitest';
import { ERROR_CODES, errorCodesMarkdownTable, isWarningCode, makeIssue, type ErrorCode } from './error-codes';

const SEED_CODES: Record<string, string> = {
  AXAG_MISSING_PARAM: 'parameter_error',
  AXAG_INVALID_TYPE: 'parameter_error',
  AXAG_OUT_OF_RANGE: 'constraint_error',
  AXAG_INVALID_ENUM: 'constraint_error',
  AXAG_PRECONDITION_FAILED: 'precondition_error',
  AXAG_CONFIRMATION_MISSING: 'safety_error',
  AXAG_APPROVAL_MISSING: 'safety_error',
  AXAG_SCOPE_VIOLATION: 'security_error',
  AXAG_TENANT_BOUNDARY: 'security_error',
  AXAG_ROLE_INSUFFICIENT: 'authorization_error',
};

const EXTENDED_CODES: Record<string, [string, 'error' | 'warning']> = {
  AXAG_UNKNOWN_TOOL: ['request_error', 'error'],
  AXAG_VERSION_NOT_FOUND: ['request_error', 'error'],
  AXAG_UNKNOWN_PARAM: ['parameter_error', 'error'],
  AXAG_INVALID_FORMAT: ['constraint_error', 'error'],
  AXAG_PATTERN_MISMATCH: ['constraint_error', 'error'],
  AXAG_INVALID_LENGTH: ['constraint_error', 'error'],
  AXAG_CONSTRAINT_VIOLATION: ['constraint_error', 'error'],
  AXAG_CONFIRMATION_INVALID: ['safety_error', 'error'],
  AXAG_APPROVAL_INVALID: ['safety_error', 'error'],
  AXAG_APPROVAL_DENIED: ['safety_error', 'error'],
  AXAG_OUTPUT_MISMATCH: ['output_error', 'error'],
  AXAG_POSTCONDITION_FAILED: ['postcondition_error', 'error'],
  AXAG_SIDE_EFFECT_MISSING: ['side_effect_error', 'error'],
  AXAG_SIDE_EFFECT_UNDECLARED: ['side_effect_error', 'warning'],
  AXAG_ERROR_SCHEMA_MISMATCH: ['error_semantics_error', 'error'],
  AXAG_DUPLICATE_CALL: ['idempotency_warning', 'warning'],
  AXAG_CONTRACT_DEPRECATED: ['deprecation_warning', 'warning'],
  AXAG_TOOL_DEFINITION_CHANGED: ['security_error', 'error'],
  AXAG_TOOL_NOT_ALLOWED: ['policy_error', 'error'],
  AXAG_SIDE_EFFECT_CEILING: ['policy_error', 'error'],
  AXAG_ARGUMENT_NOT_ALLOWED: ['policy_error', 'error'],
  AXAG_POLICY_DENIED: ['policy_error', 'error'],
  AXAG_POLICY_EVALUATION_FAILED: ['policy_error', 'error'],
  AXAG_POLICY_TRANSFORM_INVALID: ['policy_error', 'error'],
  AXAG_RATE_LIMITED: ['policy_error', 'error'],
  AXAG_BUDGET_EXCEEDED: ['policy_error', 'error'],
  AXAG_ESCALATION_REQUIRED: ['safety_error', 'error'],
  AXAG_NUMBER_UNREPRESENTABLE: ['parameter_error', 'error'],
};

describe('ERROR_CODES', () => {
  it('contains exactly the seed codes with the seed types, all errors', () => {
    for (const [code, type] of Object.entries(SEED_CODES)) {
      expect(ERROR_CODES[code as ErrorCode]).toMatchObject({ type, severity: 'error' });
    }
  });

  it('contains exactly the extended codes, and nothing else', () => {
    for (const [code, [type, severity]] of Object.entries(EXTENDED_CODES)) {
      expect(ERROR_CODES[code as ErrorCode]).toMatchObject({ type, severity });
    }
    expect(Object.keys(ERROR_CODES).sort()).toEqual([...Object.keys(SEED_CODES), ...Object.keys(EXTENDED_CODES)].sort());
    for (const entry of Object.values(ERROR_CODES)) {
      expect(entry.description.length).toBeGreaterThan(5);
      expect(entry.suggestion.length).toBeGreaterThan(5);
    }
  });

  it("names each code's specific failure for the envelope, in the seed example's style, once per code", () => {
    // The seed's example envelope types a failed precondition `precondition_failed` while its
    // table types the code `precondition_error`: both are kept, each where the seed shows it.
    expect(ERROR_CODES.AXAG_PRECONDITION_FAILED.envelope_type).toBe('precondition_failed');
    expect(ERROR_CODES.AXAG_POSTCONDITION_FAILED.envelope_type).toBe('postcondition_failed');
    const envelopeTypes = Object.values(ERROR_CODES).map((entry) => entry.envelope_type);
    expect(new Set(envelopeTypes).size).toBe(envelopeTypes.length);
    for (const [code, entry] of Object.entries(ERROR_CODES)) {
      expect(entry.envelope_type, code).toMatch(/^[a-z]+(_[a-z0-9]+)+$/);
      expect(entry.envelope_type, code).not.toBe(entry.type);
    }
  });

  it('makeIssue fills type and default suggestion, keeps extras', () => {
    const issue = makeIssue('AXAG_CONFIRMATION_MISSING', { intent: 'cart.begin_checkout', message: 'Confirm first' });
    expect(issue).toEqual({
      code: 'AXAG_CONFIRMATION_MISSING',
      type: 'safety_error',
      message: 'Confirm first',
      path: '$',
      details: { intent: 'cart.begin_checkout', suggestion: ERROR_CODES.AXAG_CONFIRMATION_MISSING.suggestion },
    });
    const custom = makeIssue('AXAG_OUT_OF_RANGE', {
      intent: 't.x',
      message: 'm',
      path: '$.n',
      suggestion: 's',
      constraint: { keyword: 'maximum', limit: 1 },
      extra: 1,
    });
    expect(custom).toMatchObject({
      type: 'constraint_error',
      path: '$.n',
      details: { suggestion: 's', constraint: { keyword: 'maximum', limit: 1 }, extra: 1 },
    });
    expect(isWarningCode('AXAG_DUPLICATE_CALL')).toBe(true);
    expect(isWarningCode('AXAG_MISSING_PARAM')).toBe(false);
  });

  it('renders a markdown table with one row per code', () => {
    const table = errorCodesMarkdownTable();
    const lines = table.split('\n');
    expect(lines[0]).toBe('| Error Code | Type | Envelope type | Severity | Description | Suggestion |');
    expect(lines).toHaveLength(Object.keys(ERROR_CODES).length + 2);
    expect(table).toContain('| `AXAG_TENANT_BOUNDARY` | security_error | tenant_boundary_crossed | error | Cross-tenant access attempt. |');
  });
});
