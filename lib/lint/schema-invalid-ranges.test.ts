import { describe, expect, it } from 'vitest';
import { compileContract } from '../contracts/compile-contract';
import { lintDocument } from './index';
import type { Diagnostic, DocumentFormat } from './types';

// A schema the 2020-12 meta-schema refuses is underlined at the offending keyword, key through
// value, not across the whole `input` or `output` (which can be hundreds of lines).

const contract = (output: unknown, input: unknown = { type: 'object', properties: { q: { type: 'string' } } }) => ({
  id: 'orders.lookup',
  version: '1.0.0',
  description: 'Looks up an order.',
  owner: 'team-orders',
  input,
  output,
  annotations: { kind: 'query', side_effect_level: 'read_only', idempotent: true },
});

/** The text a diagnostic underlines (single-line ranges only). */
function underlined(text: string, d: Diagnostic): string {
  expect(d.range.endLine).toBe(d.range.startLine);
  return text.split('\n')[d.range.startLine - 1]!.slice(d.range.startColumn - 1, d.range.endColumn - 1);
}

function findings(text: string, format: DocumentFormat, code: string): Diagnostic[] {
  return lintDocument('contract', text, { format }).diagnostics.filter((d) => d.code === code);
}

describe('ranges of schemas the meta-schema refuses', () => {
  const output = { type: 'object', properties: { name: { type: 'string', maxLength: -1 }, note: { type: 'string', maxLength: 10 } } };

  it('JSON: an invalid maxLength underlines `"maxLength": -1`, with the path to it', () => {
    const text = JSON.stringify(contract(output), null, 2);
    const [d, ...rest] = findings(text, 'json', 'CONTRACT_OUTPUT_SCHEMA_INVALID');
    expect(rest).toEqual([]);
    expect(d!.path).toBe('$.output.properties.name.maxLength');
    expect(underlined(text, d!)).toBe('"maxLength": -1');
    expect(d!.message).toContain('must be >= 0');
  });

  it('YAML: the same key and value, in block and flow style', () => {
    const block = [
      'id: orders.lookup',
      'version: 1.0.0',
      'description: Looks up an order.',
      'owner: team-orders',
      'input: { type: object }',
      'output:',
      '  type: object',
      '  properties:',
      '    name:',
      '      type: string',
      '      maxLength: -1',
      'annotations: { kind: query, side_effect_level: read_only, idempotent: true }',
      '',
    ].join('\n');
    const [d] = findings(block, 'yaml', 'CONTRACT_OUTPUT_SCHEMA_INVALID');
    expect(underlined(block, d!)).toBe('maxLength: -1');
    const flow = block.replace('    name:\n      type: string\n      maxLength: -1', '    name: { type: string, maxLength: -1 }');
    const [f] = findings(flow, 'yaml', 'CONTRACT_OUTPUT_SCHEMA_INVALID');
    expect(underlined(flow, f!)).toBe('maxLength: -1');
  });

  it('a keyword whose value is an object or array underlines its key only', () => {
    const text = JSON.stringify(contract({ type: 'object', properties: { a: { allOf: [] } } }), null, 2);
    const [d] = findings(text, 'json', 'CONTRACT_OUTPUT_SCHEMA_INVALID');
    expect(d!.path).toBe('$.output.properties.a.allOf');
    expect(underlined(text, d!)).toBe('"allOf"');
  });

  it('input and errors too; a wrong type underlines `type` and its value', () => {
    const text = JSON.stringify(contract({ type: 'object' }, { type: 'object', properties: { q: { type: 'strin' } } }), null, 2);
    const [d] = findings(text, 'json', 'CONTRACT_INPUT_SCHEMA_INVALID');
    expect(d!.path).toBe('$.input.properties.q.type');
    expect(underlined(text, d!)).toBe('"type": "strin"');
  });

  it('a valid twin has no finding', () => {
    const text = JSON.stringify(contract({ type: 'object', properties: { name: { type: 'string', maxLength: 0 } } }), null, 2);
    expect(findings(text, 'json', 'CONTRACT_OUTPUT_SCHEMA_INVALID')).toEqual([]);
  });

  it('publishing names the same path (the compiler, which the server runs)', () => {
    const compiled = compileContract(contract(output));
    expect(compiled.ok ? [] : compiled.problems.map((p) => `${p.code} ${p.path}`)).toEqual([
      'CONTRACT_OUTPUT_SCHEMA_INVALID $.output.properties.name.maxLength',
    ]);
  });
});
