import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compileContract } from '../compile-contract';
import { TOOL_ID_PATTERN } from '../contract-schema';
import { IMPORT_PROBLEM_CODES } from './draft-contract';
import {
  classifyToolDefinition,
  importParsedToolDefinitions,
  importToolDefinitions,
  MAX_IMPORT_CHARS,
  MAX_IMPORT_TOOLS,
} from './import-tool-definitions';

const schema = { type: 'object', properties: { q: { type: 'string' } } };
const mcp = (name: unknown, extra: Record<string, unknown> = {}) => ({ name, description: 'A tool.', inputSchema: schema, ...extra });

function codes(text: string) {
  return importToolDefinitions(text).problems.map((p) => [p.code, p.path]);
}

describe('importToolDefinitions: what a paste may look like', () => {
  it.each([
    ['an MCP tools/list result', { tools: [mcp('a'), mcp('b')] }, ['mcp.a', 'mcp.b']],
    ['a whole JSON-RPC response', { jsonrpc: '2.0', id: 1, result: { tools: [mcp('a')], nextCursor: 'x' } }, ['mcp.a']],
    ['a bare array', [mcp('a')], ['mcp.a']],
    ['a single tool', mcp('a'), ['mcp.a']],
    ['a legacy OpenAI functions list', { functions: [{ name: 'f', parameters: schema }] }, ['openai.f']],
    [
      'a mix of formats',
      [mcp('a'), { type: 'function', name: 'b', parameters: schema }, { name: 'c', input_schema: schema }],
      ['mcp.a', 'openai.b', 'anthropic.c'],
    ],
  ])('%s', (_what, value, ids) => {
    const result = importToolDefinitions(JSON.stringify(value));
    expect(result.problems).toEqual([]);
    expect(result.contracts.map((c) => c.document.id)).toEqual(ids);
  });

  it('classifies each entry by its own shape', () => {
    expect(classifyToolDefinition(mcp('a'))).toEqual({ source: 'mcp' });
    expect(classifyToolDefinition({ type: 'function', function: { name: 'a' } })).toEqual({ source: 'openai' });
    expect(classifyToolDefinition({ name: 'a', input_schema: {} })).toEqual({ source: 'anthropic' });
    expect(classifyToolDefinition({ name: 'a' })).toMatchObject({ unrecognized: expect.any(String) });
    expect(classifyToolDefinition('a')).toEqual({ unrecognized: 'Expected a tool definition object, got string.' });
  });
});

describe('importToolDefinitions: garbage in, problems out', () => {
  it.each([
    ['not JSON', '{"tools": [', [['IMPORT_NOT_JSON', '$']]],
    ['an empty string', '', [['IMPORT_NOT_JSON', '$']]],
    ['a number', '42', [['IMPORT_UNRECOGNIZED', '$']]],
    ['null', 'null', [['IMPORT_UNRECOGNIZED', '$']]],
    ['an object that is no tool', '{"hello": "world"}', [['IMPORT_UNRECOGNIZED', '$']]],
    ['tools that is not a list', '{"tools": {"a": 1}}', [['IMPORT_UNRECOGNIZED', '$.tools']]],
    ['an empty list', '{"tools": []}', [['IMPORT_NO_TOOLS', '$.tools']]],
    [
      'entries that are no tools',
      '[1, null, {"x": 1}]',
      [
        ['IMPORT_TOOL_UNRECOGNIZED', '$[0]'],
        ['IMPORT_TOOL_UNRECOGNIZED', '$[1]'],
        ['IMPORT_TOOL_UNRECOGNIZED', '$[2]'],
      ],
    ],
    [
      'names that are missing, empty, not strings or too long',
      JSON.stringify({ tools: [mcp(undefined), mcp(''), mcp(7), mcp('x'.repeat(257))] }),
      [
        ['IMPORT_TOOL_NAME_INVALID', '$.tools[0].name'],
        ['IMPORT_TOOL_NAME_INVALID', '$.tools[1].name'],
        ['IMPORT_TOOL_NAME_INVALID', '$.tools[2].name'],
        ['IMPORT_TOOL_NAME_INVALID', '$.tools[3].name'],
      ],
    ],
    [
      'schemas that are not objects',
      JSON.stringify([
        mcp('a', { inputSchema: 'string' }),
        { type: 'function', function: { name: 'b', parameters: [] } },
        { name: 'c', input_schema: true },
      ]),
      [
        ['IMPORT_TOOL_SCHEMA_INVALID', '$[0].inputSchema'],
        ['IMPORT_TOOL_SCHEMA_INVALID', '$[1].function.parameters'],
        ['IMPORT_TOOL_SCHEMA_INVALID', '$[2].input_schema'],
      ],
    ],
  ])('%s', (_what, text, expected) => {
    expect(codes(text)).toEqual(expected);
  });

  it('still imports the good tools beside the bad ones', () => {
    const result = importToolDefinitions(JSON.stringify({ tools: [mcp(''), mcp('good')] }));
    expect(result.contracts.map((c) => c.document.id)).toEqual(['mcp.good']);
    expect(result.problems).toHaveLength(1);
  });

  it('refuses text over the size bound before parsing it, and accepts it at the bound', () => {
    const padded = (length: number) => {
      const base = JSON.stringify([mcp('a')]);
      return base + ' '.repeat(length - base.length);
    };
    expect(codes(padded(MAX_IMPORT_CHARS + 1))).toEqual([['IMPORT_TOO_LARGE', '$']]);
    expect(importToolDefinitions(padded(MAX_IMPORT_CHARS)).contracts).toHaveLength(1);
  });

  it('refuses more than the tool bound, importing none of them', () => {
    const tools = (n: number) => JSON.stringify({ tools: Array.from({ length: n }, (_, i) => mcp(`t${i}`)) });
    expect(codes(tools(MAX_IMPORT_TOOLS + 1))).toEqual([['IMPORT_TOO_MANY_TOOLS', '$.tools']]);
    expect(importToolDefinitions(tools(MAX_IMPORT_TOOLS)).contracts).toHaveLength(MAX_IMPORT_TOOLS);
  });

  it('refuses nesting past 64 levels without overflowing the stack', () => {
    const deep = `${'['.repeat(100_000)}${']'.repeat(100_000)}`;
    expect(codes(deep)).toEqual([['IMPORT_TOO_LARGE', '$']]);
  });

  it('keeps a pasted __proto__ as data', () => {
    const text = '{"tools": [{"name": "a", "description": "A.", "inputSchema": {"type": "object", "__proto__": {"polluted": true}}}]}';
    const [imported] = importToolDefinitions(text).contracts;
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.getPrototypeOf(imported!.document.input)).toBe(Object.prototype);
    expect(Object.prototype.hasOwnProperty.call(imported!.document.input, '__proto__')).toBe(true);
  });

  it('documents every problem code it can return', () => {
    expect(Object.keys(IMPORT_PROBLEM_CODES).sort()).toEqual([
      'IMPORT_NOT_JSON',
      'IMPORT_NO_TOOLS',
      'IMPORT_NUMBER_UNREPRESENTABLE',
      'IMPORT_TOOL_NAME_INVALID',
      'IMPORT_TOOL_SCHEMA_INVALID',
      'IMPORT_TOOL_UNRECOGNIZED',
      'IMPORT_TOO_LARGE',
      'IMPORT_TOO_MANY_TOOLS',
      'IMPORT_UNRECOGNIZED',
    ]);
  });

  it('never throws, and every draft has a valid id, whatever JSON is pasted', () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 6 }), (value) => {
        const result = importParsedToolDefinitions(value);
        for (const { document } of result.contracts) expect(document.id).toMatch(TOOL_ID_PATTERN);
        for (const problem of result.problems) expect(Object.keys(IMPORT_PROBLEM_CODES)).toContain(problem.code);
      }),
      { numRuns: 300 },
    );
  });
});

describe('importToolDefinitions: contract ids', () => {
  it.each([
    ['get_weather', 'mcp.get_weather', false],
    ['getWeather', 'mcp.get_weather', true],
    ['get-weather', 'mcp.get_weather', true],
    ['Get Weather!', 'mcp.get_weather', true],
    ['github.create_issue', 'mcp.github.create_issue', false],
    ['3d_render', 'mcp.tool_3d_render', true],
    ['__', 'mcp.tool', true],
    ['日本語', 'mcp.tool', true],
  ])('%s becomes %s', (name, id, noted) => {
    const [imported] = importToolDefinitions(JSON.stringify([mcp(name)])).contracts;
    expect(imported!.document.id).toBe(id);
    expect(imported!.notes.some((n) => n.path === '$.id')).toBe(noted);
  });

  it('keeps ids unique within one paste and says why one got a suffix', () => {
    const result = importToolDefinitions(JSON.stringify([mcp('get_weather'), mcp('get-weather'), mcp('getWeather')]));
    expect(result.contracts.map((c) => c.document.id)).toEqual(['mcp.get_weather', 'mcp.get_weather_2', 'mcp.get_weather_3']);
    expect(result.contracts[1]!.notes[0]).toEqual({
      path: '$.id',
      message:
        'Derived from the MCP tool name "get-weather" (another imported tool already has mcp.get_weather): contract ids are dotted lowercase names. Runtimes must call the tool by this id.',
    });
  });

  it('cuts ids to 128 characters and still compiles', () => {
    const [imported] = importToolDefinitions(JSON.stringify([mcp(`${'a'.repeat(100)}.${'b'.repeat(100)}`)])).contracts;
    expect(imported!.document.id.length).toBeLessThanOrEqual(128);
    expect(imported!.document.id).toMatch(TOOL_ID_PATTERN);
    expect(compileContract(imported!.document)).toMatchObject({ ok: true });
  });

  it('without a namespace keeps dotted names and prefixes the source to undotted ones', () => {
    const result = importToolDefinitions(JSON.stringify([mcp('orders.lookup'), mcp('ping')]), { namespace: '' });
    expect(result.contracts.map((c) => c.document.id)).toEqual(['orders.lookup', 'mcp.ping']);
  });

  it('normalises the namespace option like a name', () => {
    const [imported] = importToolDefinitions(JSON.stringify([mcp('ping')]), { namespace: 'Acme-Tools' }).contracts;
    expect(imported!.document.id).toBe('acme_tools.ping');
  });

  it('cuts a description over the contract limit, with a note', () => {
    const [imported] = importToolDefinitions(JSON.stringify([mcp('a', { description: 'x'.repeat(5000) })])).contracts;
    expect(imported!.document.description).toHaveLength(4000);
    expect(imported!.notes.map((n) => n.path)).toContain('$.description');
    expect(compileContract(imported!.document)).toMatchObject({ ok: true });
  });
});
