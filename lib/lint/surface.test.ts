import { describe, expect, it } from 'vitest';
import type { LintOptions } from './index';
import { SURFACE_LINT_CODES, type SurfaceLintCode } from './surface';
import { base, codes, CONTRACTS, lint, withPrompt, type Doc } from './surface-test-helpers';

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
    const errors = harn
      .filter(([, info]) => info.severity === 'error')
      .map(([code]) => code)
      .sort();
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
