import { describe, expect, it } from 'vitest';
import { describeFailure } from './studio-api';

const diagnostic = { code: 'CONTRACT_SCHEMA_INVALID', severity: 'error', message: 'bad level', path: '$.annotations.side_effect_level', range: { startLine: 9, startColumn: 26, endLine: 9, endColumn: 37 }, target: 'document' };

describe('describeFailure', () => {
  it('reads lint diagnostics from a refused publish, whether under error or error.details', () => {
    expect(describeFailure(409, { error: { code: 'LINT_ERRORS', message: 'The document has 1 error.', diagnostics: [diagnostic] } })).toEqual({
      status: 409, code: 'LINT_ERRORS', message: 'The document has 1 error.', diagnostics: [diagnostic], problems: [],
    });
    expect(describeFailure(409, { error: { code: 'LINT_ERRORS', message: 'x', details: { diagnostics: [diagnostic] } } }).diagnostics).toEqual([diagnostic]);
  });

  it('drops entries that are not diagnostics instead of trusting the shape', () => {
    const junk = [{ code: 'X' }, 'text', null, { ...diagnostic, severity: 'fatal' }, { ...diagnostic, range: { startLine: '9' } }];
    expect(describeFailure(409, { error: { code: 'LINT_ERRORS', message: 'x', diagnostics: junk } }).diagnostics).toEqual([]);
  });

  it('lists schema problems of a refused save', () => {
    const body = { error: { code: 'contract_invalid', message: 'The contract document is invalid', details: { problems: [{ code: 'CONTRACT_SCHEMA_INVALID', path: 'annotations.side_effect_level', message: 'Invalid option' }] } } };
    expect(describeFailure(422, body)).toMatchObject({ code: 'contract_invalid', problems: ['annotations.side_effect_level: Invalid option'] });
  });

  it('still says something when the body is not the error envelope', () => {
    expect(describeFailure(502, undefined)).toEqual({ status: 502, code: 'http_502', message: 'The server answered 502.', diagnostics: [], problems: [] });
  });
});
