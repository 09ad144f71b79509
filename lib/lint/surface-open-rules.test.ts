import { describe, expect, it } from 'vitest';
import { ToolContractSchema } from '@toolgate/sdk/core';
import { lookupOrderContract } from '../contracts/examples';
import { isExactPattern, toolPatternMatches } from '../policies/policy-schema';
import { base, codes, lint, type Doc } from './surface-test-helpers';

describe('lintSurface: the rules Harn leaves open', () => {
  const prompt = (system: string, mutate: (d: Doc) => void = () => {}) => {
    const d = base();
    mutate(d);
    d.system = system;
    return lint(d).filter((x) => x.target === 'prompt');
  };

  it('counts a plain-word tool name only as a call or inline code', () => {
    const named = (d: Doc) => {
      d.tools[2].name = 'search';
      d.tools[1].annotations.result_readers = ['search'];
      d.policy.tools = ['orders.*', 'run_command'];
    };
    expect(prompt('Search the orders and search again.', named)).toEqual([]);
    expect(codes(prompt('Use search(q) first.', named))).toEqual(['TOOL_SURFACE_PROMPT_TOOL_NOT_IN_POLICY']);
    expect(codes(prompt('Use `search` first.', named))).toEqual(['TOOL_SURFACE_PROMPT_TOOL_NOT_IN_POLICY']);
  });

  it('finds a declared name inside hyphenated words and before punctuation', () => {
    const outside = (d: Doc) => (d.policy.tools = ['orders.*', 'read_command_output']);
    const found = prompt('A run_command-style call. Or run_command.', outside);
    expect(found.map((d) => [d.code, d.range.startColumn, d.range.endColumn])).toEqual([
      ['TOOL_SURFACE_PROMPT_TOOL_NOT_IN_POLICY', 3, 14],
      ['TOOL_SURFACE_PROMPT_TOOL_NOT_IN_POLICY', 30, 41],
    ]);
  });

  it('accepts tool_search( only when tool_search is on', () => {
    expect(codes(prompt('Call tool_search("x").'))).toEqual(['TOOL_SURFACE_UNKNOWN_PROMPT_TOOL']);
    expect(prompt('Call tool_search("x").', (d) => (d.tool_search = true))).toEqual([]);
  });

  it('attributes an alias key to the innermost call of the tool that declares it', () => {
    expect(codes(prompt('Call other({cmd: 1}) and run_command({command: f({cmd: 2})}).'))).toEqual([
      'TOOL_SURFACE_UNKNOWN_PROMPT_TOOL',
      'TOOL_SURFACE_UNKNOWN_PROMPT_TOOL',
    ]);
    // A paragraph break ends an unclosed call.
    expect(codes(prompt('run_command(\n\ncmd: here'))).toEqual([]);
    expect(codes(prompt('run_command(\ncmd: here'))).toEqual(['TOOL_SURFACE_DEPRECATED_ARG_ALIAS']);
  });

  it('treats a policy with `tools: []` as allowing nothing', () => {
    const found = lint({ ...base(), policy: { tools: [] } });
    expect(codes(found)).toContain('TOOL_SURFACE_PROMPT_TOOL_NOT_IN_POLICY');
    expect(codes(found)).toContain('TOOL_SURFACE_APPROVAL_PATTERN_NO_MATCH');
  });

  it('reads a contract tool’s schema, annotations and argument aliases from the contract', () => {
    const contract = {
      ...lookupOrderContract,
      annotations: { ...lookupOrderContract.annotations, side_effect_level: 'none' },
      argument_aliases: { id: 'order_id' },
    };
    const d = base();
    d.system = 'Call orders.lookup({id: "o_1"}).';
    const found = lint(d, { contracts: [contract] });
    expect(codes(found).sort()).toEqual(['TOOL_SURFACE_DEPRECATED_ARG_ALIAS', 'TOOL_SURFACE_MISSING_SIDE_EFFECT_LEVEL']);
    const noInput = { ...lookupOrderContract, input: undefined, annotations: undefined };
    expect(codes(lint(base(), { contracts: [noInput] })).sort()).toEqual([
      'TOOL_SURFACE_MISSING_ANNOTATIONS',
      'TOOL_SURFACE_MISSING_SCHEMA',
    ]);
  });

  it('lints the result readers of a contract tool that emits artifacts, as of an inline tool', () => {
    const contract = (annotations: Record<string, unknown>) =>
      ToolContractSchema.parse({
        ...lookupOrderContract,
        annotations: {
          ...lookupOrderContract.annotations,
          kind: 'execute',
          side_effect_level: 'read_only',
          emits_artifacts: true,
          ...annotations,
        },
      });
    const readers = (annotations: Record<string, unknown>) =>
      lint(base(), { contracts: [contract(annotations)] }).filter((d) => d.code.includes('RESULT_READER'));
    const missing = readers({});
    expect(missing.map((d) => [d.code, d.path])).toEqual([['TOOL_SURFACE_MISSING_RESULT_READER', '$.tools[0].contract']]);
    expect(missing[0]?.message).toContain('Execute tool `orders.lookup` can emit artifacts');
    expect(readers({ result_readers: ['read_command_output'] })).toEqual([]);
    expect(readers({ inline_result: true })).toEqual([]);
    expect(codes(readers({ result_readers: ['gone'] })).sort()).toEqual([
      'TOOL_SURFACE_MISSING_RESULT_READER',
      'TOOL_SURFACE_UNKNOWN_RESULT_READER',
    ]);
  });

  it('does not cascade from an invalid tool entry: its name still counts as declared', () => {
    const d = base();
    d.tools[2].annotations.kind = 'reader';
    expect(codes(lint(d))).toEqual(['SURFACE_SCHEMA_INVALID']);
  });
});

describe('toolPatternMatches', () => {
  it.each([
    ['orders.lookup', 'orders.lookup', true],
    ['orders.lookup', 'orders.lookups', false],
    ['orders.*', 'orders.lookup', true],
    ['orders.*', 'orders', false],
    ['*', 'anything', true],
    ['*.lookup', 'orders.lookup', true],
    ['a*b*c', 'abc', true],
    ['a*b*c', 'aXbYc', true],
    ['a*b*c', 'acb', false],
    ['a*a', 'a', false],
    ['a**', 'a', true],
    ['.*', 'x', false],
  ])('%s ~ %s = %s', (pattern, id, expected) => {
    expect(toolPatternMatches(pattern, id)).toBe(expected);
  });

  it('treats only patterns without * as exact', () => {
    expect(isExactPattern('orders.lookup')).toBe(true);
    expect(isExactPattern('orders.*')).toBe(false);
  });
});
