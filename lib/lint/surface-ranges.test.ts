import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { lintDocument } from './index';
import { parseDocument } from './parse-document';
import { lintSurface } from './surface';
import { base, CONTRACTS } from './surface-test-helpers';
import type { Diagnostic } from './types';

describe('lintSurface: where diagnostics land', () => {
  const text = [
    'id: support-agent', // 1
    'version: 1.0.0', // 2
    'tools:', // 3
    '  - contract: orders.lokup', // 4
    '    executor: svc', // 5
    '  - name: run_command', // 6
    '    parameters: { type: object, properties: { command: { type: string } } }', // 7
    '    annotations: { kind: execute, side_effect_level: process_exec }', // 8
    '    executor: sandbox', // 9
    'policy:', // 10
    '  side_effect_ceiling: write', // 11
    'system: |', // 12
    '  Use run_command.', // 13
    '  Never call rm_rf(x).', // 14
    'colour: red', // 15
    '',
  ].join('\n');
  const found = lintDocument('surface', text, { contracts: CONTRACTS }).diagnostics;
  const one = (code: string) => {
    const matches = found.filter((d) => d.code === code);
    expect(matches).toHaveLength(1);
    return matches[0] as Diagnostic;
  };

  it('underlines an unknown field’s key', () => {
    const d = one('SURFACE_SCHEMA_INVALID');
    expect(d.path).toBe('$.colour');
    expect(d.range).toEqual({ startLine: 15, startColumn: 1, endLine: 15, endColumn: 7 });
    expect(d.target).toBe('document');
  });

  it('underlines an unknown contract id', () => {
    const d = one('SURFACE_UNKNOWN_CONTRACT');
    expect(d.path).toBe('$.tools[0].contract');
    expect(d.range).toEqual({ startLine: 4, startColumn: 15, endLine: 4, endColumn: 27 });
  });

  it('still checks the rest of a document with a schema error, at the annotation value', () => {
    const d = one('TOOL_SURFACE_SIDE_EFFECT_CEILING_EXCEEDED');
    expect(d.path).toBe('$.tools[1].annotations.side_effect_level');
    expect(d.range).toEqual({ startLine: 8, startColumn: 54, endLine: 8, endColumn: 66 });
  });

  it('puts prompt findings in the prompt text, even when the prompt is the document’s `system`', () => {
    const d = one('TOOL_SURFACE_UNKNOWN_PROMPT_TOOL');
    expect(d.target).toBe('prompt');
    expect(d.path).toBe('$.system');
    expect(d.range).toEqual({ startLine: 2, startColumn: 12, endLine: 2, endColumn: 17 });
  });

  it('lets options.prompt override `system`, with ranges in that text', () => {
    const prompt = 'First line.\n\n```\nrm_rf(x)\n```\n  then  `orders.lookup` and   rm_rf(y)\n';
    const result = lintDocument('surface', text, { contracts: CONTRACTS, prompt }).diagnostics.filter((d) => d.target === 'prompt');
    expect(result.map((d) => [d.code, d.range])).toEqual([
      ['TOOL_SURFACE_UNKNOWN_PROMPT_TOOL', { startLine: 6, startColumn: 31, endLine: 6, endColumn: 36 }],
    ]);
  });

  it('reports a missing field at its parent’s key', () => {
    const d = lintDocument('surface', 'id: x\ntools: []\n').diagnostics;
    expect(d).toEqual([
      {
        code: 'SURFACE_SCHEMA_INVALID',
        severity: 'error',
        message: 'Missing required field `version`.',
        path: '$.version',
        range: { startLine: 1, startColumn: 1, endLine: 1, endColumn: 6 },
        target: 'document',
      },
    ]);
  });

  it('works on JSON documents, explaining a tool entry against the shape its author chose', () => {
    const json = '{\n  "id": "s",\n  "version": "1.0.0",\n  "tools": [\n    {"name": "t_1", "executor": "x", "contract": 3}\n  ]\n}';
    const d = lintDocument('surface', json).diagnostics;
    expect(d.map((x) => [x.code, x.path, x.range.startLine, x.range.startColumn])).toEqual([
      ['SURFACE_SCHEMA_INVALID', '$.tools[0].name', 5, 6],
      ['SURFACE_SCHEMA_INVALID', '$.tools[0].contract', 5, 50],
    ]);
  });
});

describe('lintSurface never throws', () => {
  const parsedWith = (value: unknown) => ({ ...parseDocument('{}', 'json'), value });

  it('on any parsed value and options', () => {
    fc.assert(
      fc.property(
        fc.anything({ withNullPrototype: true, withObjectString: true }),
        fc.array(fc.anything(), { maxLength: 3 }),
        fc.option(fc.string()),
        (value, contracts, prompt) => {
          lintSurface(parsedWith(value), { contracts, prompt: prompt ?? undefined });
        },
      ),
      { numRuns: 300 },
    );
  });

  it('on mutations of a valid surface', () => {
    const paths: (string | number)[][] = [
      ['tools'],
      ['tools', 0],
      ['tools', 1, 'annotations'],
      ['tools', 1, 'annotations', 'result_readers'],
      ['tools', 1, 'annotations', 'arg_aliases'],
      ['tools', 1, 'parameters'],
      ['tools', 1, 'parameters', 'properties'],
      ['policy'],
      ['policy', 'tools'],
      ['policy', 'arg_constraints', 0],
      ['approval_policy', 'rules'],
      ['system'],
      ['tool_search'],
      ['__proto__'],
      ['tools', 2, 'name'],
      ['tools', 0, 'contract'],
    ];
    fc.assert(
      fc.property(
        fc.constantFrom(...paths),
        fc.anything({ withNullPrototype: true }),
        fc.constantFrom('yaml', 'json', 'direct'),
        (path, replacement, how) => {
          const doc = base();
          let at: Record<string | number, unknown> = doc;
          for (const segment of path.slice(0, -1)) at = (at[segment] ?? {}) as Record<string | number, unknown>;
          Object.defineProperty(at, path[path.length - 1] as string, {
            value: replacement,
            enumerable: true,
            writable: true,
            configurable: true,
          });
          if (how === 'direct') {
            lintSurface(parsedWith(doc), { contracts: CONTRACTS });
            return;
          }
          let text: string;
          try {
            text = how === 'json' ? JSON.stringify(doc) : stringify(doc);
          } catch {
            return; // Not serialisable (e.g. a BigInt): nothing a document could hold.
          }
          if (typeof text !== 'string') return;
          const result = lintDocument('surface', text, { contracts: CONTRACTS, format: how });
          for (const d of result.diagnostics) {
            expect(d.range.startLine).toBeGreaterThanOrEqual(1);
            expect(d.range.startColumn).toBeGreaterThanOrEqual(1);
          }
        },
      ),
      { numRuns: 300 },
    );
  });
});
