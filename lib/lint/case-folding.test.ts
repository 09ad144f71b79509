import { describe, expect, it } from 'vitest';
import { lintDocument } from '.';
import { compileCondition } from '../contracts/compile-conditions';
import type { Diagnostic } from './types';

/** The underlined text of a diagnostic, on its (single) line. */
function underlined(text: string, d: Diagnostic): string {
  return text.split('\n')[d.range.startLine - 1]!.slice(d.range.startColumn - 1, d.range.endColumn - 1);
}

const holds = (expression: string, args: Record<string, unknown>) => {
  const compiled = compileCondition({ id: 'c', expression, message: 'm' }, 'pre');
  if (!compiled.ok) throw new Error(compiled.message);
  return compiled.condition.evaluate({ args, context: {} });
};

describe('lowerAscii() and upperAscii() in conditions', () => {
  it('fold non-ASCII letters in the CEL library (the reason for the warning; drop it when this fails)', () => {
    expect(holds('args.q.lowerAscii() == "ok"', { q: 'o\u212a' })).toEqual({ ok: true, holds: true });
    expect(holds('args.q.upperAscii() == "SS"', { q: 'ß' })).toEqual({ ok: true, holds: true });
  });

  it('are a warning in a policy rule’s when, underlined at the call', () => {
    const text =
      'id: p\nversion: 1.0.0\nrules:\n  - id: r\n    tools: ["a.b"]\n    when: args.q.lowerAscii() == "ok" || args.r.upperAscii() == "NO"\n    decision: deny\n';
    const result = lintDocument('policy', text);
    const found = result.diagnostics.filter((d) => d.code === 'POLICY_CASE_FOLDING');
    expect(found.map((d) => [d.severity, underlined(text, d)])).toEqual([
      ['warning', 'lowerAscii'],
      ['warning', 'upperAscii'],
    ]);
    expect(found[0]?.message).toMatch(/KELVIN SIGN/);
    expect(result.valid).toBe(true);
  });

  it('are a warning in a contract’s pre- and postconditions', () => {
    const contract = {
      id: 'a.b',
      version: '1.0.0',
      description: 'd',
      owner: 'o',
      input: { type: 'object', properties: { q: { type: 'string' } } },
      output: { type: 'object' },
      annotations: { kind: 'query', side_effect_level: 'read_only', idempotent: true },
      preconditions: [{ id: 'p', expression: 'args.q.lowerAscii() != "admin"', message: 'no admin' }],
    };
    const result = lintDocument('contract', JSON.stringify(contract, null, 2));
    expect(result.diagnostics.filter((d) => d.code === 'CONTRACT_CASE_FOLDING').map((d) => d.severity)).toEqual(['warning']);
    expect(result.valid).toBe(true);
  });
});
