import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { lookupOrderContract } from '../contracts/examples';
import { lintDocument, type LintOptions } from './index';
import { parseDocument } from './parse-document';
import { isExactPattern, lintSurface, SURFACE_LINT_CODES, toolPatternMatches, type SurfaceLintCode } from './surface';
import type { Diagnostic } from './types';

type Doc = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** A coherent surface: it lints without a single diagnostic (asserted below). */
function base(): Doc {
  return {
    id: 'support-agent',
    version: '1.0.0',
    tools: [
      { contract: 'orders.lookup', executor: 'orders-service' },
      {
        name: 'run_command',
        description: 'Runs a command',
        parameters: { type: 'object', properties: { command: { type: 'string' } }, required: ['command'] },
        annotations: {
          kind: 'execute',
          side_effect_level: 'process_exec',
          emits_artifacts: true,
          result_readers: ['read_command_output'],
          arg_aliases: { cmd: 'command' },
        },
        executor: 'sandbox',
      },
      {
        name: 'read_command_output',
        parameters: { type: 'object', properties: { handle: { type: 'string' } } },
        annotations: { kind: 'query', side_effect_level: 'read_only' },
        executor: 'sandbox',
      },
    ],
    policy: {
      tools: ['orders.*', 'run_command', 'read_command_output'],
      side_effect_ceiling: 'process_exec',
      arg_constraints: [{ tool: 'run_command', key: 'command', allowed_values: ['ls', 'pwd'] }],
    },
    approval_policy: { rules: [{ tools: ['run_command'], roles: ['approver'] }] },
    system: 'Use orders.lookup to find orders and run_command({command: "ls"}) to list files.\n',
    tool_search: false,
  };
}

const CONTRACTS = [lookupOrderContract];

function lint(doc: Doc, options: LintOptions = {}): Diagnostic[] {
  return lintDocument('surface', stringify(doc), { contracts: CONTRACTS, ...options }).diagnostics;
}

const codes = (diagnostics: readonly Diagnostic[]) => diagnostics.map((d) => d.code);
const withPrompt = (system: string) => (d: Doc) => {
  d.system = system;
};

interface Case {
  code: SurfaceLintCode;
  why: string;
  raise: (d: Doc) => void;
  twin: (d: Doc) => void;
  raiseOptions?: LintOptions;
  twinOptions?: LintOptions;
}

const CASES: Case[] = [
  {
    code: 'TOOL_SURFACE_MISSING_SCHEMA',
    why: 'an active tool without parameters; the twin is deferred, hence inactive',
    raise: (d) => delete d.tools[2].parameters,
    twin: (d) => {
      delete d.tools[2].parameters;
      d.tools[2].defer_loading = true;
    },
  },
  {
    code: 'TOOL_SURFACE_MISSING_ANNOTATIONS',
    why: 'an active tool without annotations; the twin is excluded by the policy',
    raise: (d) => delete d.tools[2].annotations,
    twin: (d) => {
      delete d.tools[2].annotations;
      d.policy.tools = ['orders.*', 'run_command'];
    },
  },
  {
    code: 'TOOL_SURFACE_MISSING_SIDE_EFFECT_LEVEL',
    why: 'side_effect_level none (absent counts as none)',
    raise: (d) => (d.tools[2].annotations.side_effect_level = 'none'),
    twin: (d) => (d.tools[2].annotations.side_effect_level = 'read_only'),
  },
  {
    code: 'TOOL_SURFACE_MISSING_EXECUTOR',
    why: 'no executor on an active contract tool',
    raise: (d) => delete d.tools[0].executor,
    twin: (d) => (d.tools[0].executor = 'orders-v2'),
  },
  {
    code: 'TOOL_SURFACE_MISSING_RESULT_READER',
    why: 'an artifact-emitting execute tool with no reader; the twin returns inline results',
    raise: (d) => (d.tools[1].annotations.result_readers = []),
    twin: (d) => {
      d.tools[1].annotations.result_readers = [];
      d.tools[1].annotations.inline_result = true;
    },
  },
  {
    code: 'TOOL_SURFACE_MISSING_RESULT_READER',
    why: 'the only reader is deferred while tool_search is off; the twin turns tool_search on',
    raise: (d) => (d.tools[2].defer_loading = true),
    twin: (d) => {
      d.tools[2].defer_loading = true;
      d.tool_search = true;
    },
  },
  {
    code: 'TOOL_SURFACE_UNKNOWN_RESULT_READER',
    why: 'a reader that is not declared (a typo)',
    raise: (d) => (d.tools[1].annotations.result_readers = ['read_command_outptu']),
    twin: (d) => (d.tools[1].annotations.result_readers = ['read_command_output']),
  },
  {
    code: 'TOOL_SURFACE_UNKNOWN_ARG_CONSTRAINT_TOOL',
    why: 'a constraint on a tool nobody declared; the twin uses a pattern that matches',
    raise: (d) => (d.policy.arg_constraints[0].tool = 'run_cmd'),
    twin: (d) => (d.policy.arg_constraints[0].tool = 'run_*'),
  },
  {
    code: 'TOOL_SURFACE_UNKNOWN_ARG_CONSTRAINT_KEY',
    why: 'a misspelt key; the twin names a declared alias, which counts',
    raise: (d) => (d.policy.arg_constraints[0].key = 'comand'),
    twin: (d) => (d.policy.arg_constraints[0].key = 'cmd'),
  },
  {
    code: 'TOOL_SURFACE_APPROVAL_PATTERN_NO_MATCH',
    why: 'an exact approval pattern with a typo; the twin is a wildcard, never checked',
    raise: (d) => (d.approval_policy.rules[0].tools = ['run_comand']),
    twin: (d) => (d.approval_policy.rules[0].tools = ['run_comand*']),
  },
  {
    code: 'TOOL_SURFACE_UNKNOWN_PROMPT_TOOL',
    why: 'the prompt calls an undeclared tool; the twin says the same in prose',
    raise: withPrompt('Then call delete_files(all) when done.'),
    twin: withPrompt('Then delete files (all) when done, and search the tool(s).'),
  },
  {
    code: 'TOOL_SURFACE_PROMPT_TOOL_NOT_IN_POLICY',
    why: 'the prompt names a tool the policy leaves out; in the twin the mention is inside a fence',
    raise: (d) => (d.policy.tools = ['run_command', 'read_command_output']),
    twin: (d) => {
      d.policy.tools = ['run_command', 'read_command_output'];
      d.system = 'Example:\n```\norders.lookup({order_id: "x"})\n```\n';
    },
  },
  {
    code: 'TOOL_SURFACE_DEFERRED_TOOL_PROMPT_REFERENCE',
    why: 'the prompt names a deferred tool with tool_search off; the twin turns tool_search on',
    raise: (d) => (d.tools[0].defer_loading = true),
    twin: (d) => {
      d.tools[0].defer_loading = true;
      d.tool_search = true;
    },
  },
  {
    code: 'TOOL_SURFACE_DEPRECATED_ARG_ALIAS',
    why: 'the prompt passes the alias; the twin the canonical key',
    raise: withPrompt('Call run_command({cmd: "ls"}).'),
    twin: withPrompt('Call run_command({command: "ls"}).'),
  },
  {
    code: 'TOOL_SURFACE_DEPRECATED_ARG_ALIAS',
    why: 'the prompt mentions the alias as inline code; the twin as a plain word',
    raise: withPrompt('Pass `cmd` to run_command.'),
    twin: withPrompt('Pass a cmd to run_command.'),
  },
  {
    code: 'TOOL_SURFACE_SIDE_EFFECT_CEILING_EXCEEDED',
    why: 'process_exec above a write ceiling',
    raise: (d) => (d.policy.side_effect_ceiling = 'write'),
    twin: (d) => (d.policy.side_effect_ceiling = 'external'),
  },
  {
    code: 'SURFACE_SCHEMA_INVALID',
    why: 'an unknown kind',
    raise: (d) => (d.tools[1].annotations.kind = 'exec'),
    twin: (d) => (d.tools[1].annotations.kind = 'execute'),
  },
  {
    code: 'SURFACE_UNKNOWN_CONTRACT',
    why: 'the referenced contract is not published',
    raise: () => {},
    twin: () => {},
    raiseOptions: { contracts: [] },
    twinOptions: { contracts: CONTRACTS },
  },
  {
    code: 'SURFACE_DUPLICATE_TOOL',
    why: 'the same inline name twice',
    raise: (d) => d.tools.push({ ...d.tools[2] }),
    twin: (d) => d.tools.push({ ...d.tools[2], name: 'read_command_output_v2' }),
  },
  {
    code: 'SURFACE_ARG_ALIAS_UNKNOWN_KEY',
    why: 'an alias pointing at an undeclared key',
    raise: (d) => (d.tools[1].annotations.arg_aliases = { cmd: 'commnd' }),
    twin: (d) => (d.tools[1].annotations.arg_aliases = { cmd: 'command' }),
  },
  {
    code: 'SURFACE_ARG_CONSTRAINT_PATTERN_INVALID',
    why: 'a backreference, which RE2 cannot run',
    raise: (d) => (d.policy.arg_constraints = [{ tool: 'run_command', key: 'command', pattern: '^(ls)\\1$' }]),
    twin: (d) => (d.policy.arg_constraints = [{ tool: 'run_command', key: 'command', pattern: '^(ls)+$' }]),
  },
  {
    code: 'SURFACE_POLICY_PATTERN_NO_MATCH',
    why: 'an exact policy pattern with a typo',
    raise: (d) => d.policy.tools.push('read_comand_output'),
    twin: (d) => d.policy.tools.push('read_comand_output*'),
  },
  {
    code: 'SURFACE_PROMPT_TOO_LARGE',
    why: 'a prompt over 100,000 characters',
    raise: () => {},
    twin: () => {},
    raiseOptions: { prompt: 'a '.repeat(50_000) + 'b' },
    twinOptions: { prompt: 'a '.repeat(50_000) },
  },
  {
    code: 'SURFACE_PROMPT_UNTERMINATED_IGNORE',
    why: 'ignore-start without ignore-end',
    raise: withPrompt('Hi.\n<!-- harn-tool-surface: ignore-start -->\nold_tool()\n'),
    twin: withPrompt('Hi.\n<!-- harn-tool-surface: ignore-start -->\nold_tool()\n<!-- harn-tool-surface: ignore-end -->\n'),
  },
  {
    code: 'SURFACE_PROMPT_UNMATCHED_IGNORE_END',
    why: 'ignore-end without ignore-start',
    raise: withPrompt('Hi.\nold_tool\n<!-- harn-tool-surface: ignore-end -->\n'),
    twin: withPrompt('<!-- harn-tool-surface: ignore-start -->\nold_tool\n<!-- harn-tool-surface: ignore-end -->\n'),
  },
  {
    code: 'SURFACE_PROMPT_UNTERMINATED_FENCE',
    why: 'a fence never closed',
    raise: withPrompt('Hi.\n```js\nold_tool()\n'),
    twin: withPrompt('Hi.\n```js\nold_tool()\n```\n'),
  },
];

describe('lintSurface: every code fires, and its near-twin does not', () => {
  it('the base surface is clean', () => {
    expect(lint(base())).toEqual([]);
  });

  it('every registered code has a case, and every case a registered code', () => {
    const covered = new Set(CASES.map((c) => c.code));
    expect(Object.keys(SURFACE_LINT_CODES).filter((code) => !covered.has(code as SurfaceLintCode))).toEqual([]);
  });

  it('keeps Harn’s fourteen codes with Harn’s severities', () => {
    const harn = Object.entries(SURFACE_LINT_CODES).filter(([code]) => code.startsWith('TOOL_SURFACE_'));
    expect(harn).toHaveLength(14);
    const errors = harn.filter(([, info]) => info.severity === 'error').map(([code]) => code).sort();
    expect(errors).toEqual(['TOOL_SURFACE_MISSING_RESULT_READER', 'TOOL_SURFACE_SIDE_EFFECT_CEILING_EXCEEDED']);
  });

  it.each(CASES.map((c) => [c.code, c.why, c] as const))('%s: %s', (code, _why, c) => {
    const raised = base();
    c.raise(raised);
    const twin = base();
    c.twin(twin);
    const found = lint(raised, c.raiseOptions).filter((d) => d.code === code);
    expect(found.length).toBeGreaterThan(0);
    for (const d of found) expect(d.severity).toBe(SURFACE_LINT_CODES[code].severity);
    expect(codes(lint(twin, c.twinOptions))).not.toContain(code);
  });
});

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
      { code: 'SURFACE_SCHEMA_INVALID', severity: 'error', message: 'Missing required field `version`.', path: '$.version', range: { startLine: 1, startColumn: 1, endLine: 1, endColumn: 6 }, target: 'document' },
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
    const contract = { ...lookupOrderContract, annotations: { ...lookupOrderContract.annotations, side_effect_level: 'none' }, argument_aliases: { id: 'order_id' } };
    const d = base();
    d.system = 'Call orders.lookup({id: "o_1"}).';
    const found = lint(d, { contracts: [contract] });
    expect(codes(found).sort()).toEqual(['TOOL_SURFACE_DEPRECATED_ARG_ALIAS', 'TOOL_SURFACE_MISSING_SIDE_EFFECT_LEVEL']);
    const noInput = { ...lookupOrderContract, input: undefined, annotations: undefined };
    expect(codes(lint(base(), { contracts: [noInput] })).sort()).toEqual(['TOOL_SURFACE_MISSING_ANNOTATIONS', 'TOOL_SURFACE_MISSING_SCHEMA']);
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

describe('lintSurface never throws', () => {
  const parsedWith = (value: unknown) => ({ ...parseDocument('{}', 'json'), value });

  it('on any parsed value and options', () => {
    fc.assert(
      fc.property(fc.anything({ withNullPrototype: true, withObjectString: true }), fc.array(fc.anything(), { maxLength: 3 }), fc.option(fc.string()), (value, contracts, prompt) => {
        lintSurface(parsedWith(value), { contracts, prompt: prompt ?? undefined });
      }),
      { numRuns: 300 },
    );
  });

  it('on mutations of a valid surface', () => {
    const paths: (string | number)[][] = [
      ['tools'], ['tools', 0], ['tools', 1, 'annotations'], ['tools', 1, 'annotations', 'result_readers'], ['tools', 1, 'annotations', 'arg_aliases'],
      ['tools', 1, 'parameters'], ['tools', 1, 'parameters', 'properties'], ['policy'], ['policy', 'tools'], ['policy', 'arg_constraints', 0],
      ['approval_policy', 'rules'], ['system'], ['tool_search'], ['__proto__'], ['tools', 2, 'name'], ['tools', 0, 'contract'],
    ];
    fc.assert(
      fc.property(fc.constantFrom(...paths), fc.anything({ withNullPrototype: true }), fc.constantFrom('yaml', 'json', 'direct'), (path, replacement, how) => {
        const doc = base();
        let at: Record<string | number, unknown> = doc;
        for (const segment of path.slice(0, -1)) at = (at[segment] ?? {}) as Record<string | number, unknown>;
        Object.defineProperty(at, path[path.length - 1] as string, { value: replacement, enumerable: true, writable: true, configurable: true });
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
      }),
      { numRuns: 300 },
    );
  });
});
