import { describe, expect, it } from 'vitest';
import { compileContract } from '../compile-contract';
import { SIDE_EFFECT_LEVELS, compareSideEffectLevels, type ToolContractInput } from '../contract-schema';
import { EXAMPLE_CONTRACTS } from '../examples';
import { CONTRACT_TEMPLATES } from '../templates';
import { importToolDefinitions } from './import-tool-definitions';
import { annotationsFromMcpHints, toMcpTool } from './mcp';

const weatherInput = {
  type: 'object',
  required: ['city'],
  properties: { city: { type: 'string', minLength: 1 }, units: { enum: ['metric', 'imperial'] } },
};

function importMcp(tools: unknown[], options = {}) {
  return importToolDefinitions(JSON.stringify({ tools }), options);
}

function only(tools: unknown[], options = {}) {
  const result = importMcp(tools, options);
  expect(result.problems).toEqual([]);
  expect(result.contracts).toHaveLength(1);
  return result.contracts[0]!;
}

describe('MCP import', () => {
  it('turns a tools/list tool into a draft contract that compiles', () => {
    const imported = only([
      {
        name: 'get_weather',
        title: 'Weather',
        description: 'Current weather for a city.',
        inputSchema: weatherInput,
        outputSchema: { type: 'object', required: ['celsius'], properties: { celsius: { type: 'number' } } },
        annotations: { readOnlyHint: true, openWorldHint: true },
      },
    ]);
    expect(imported.source).toBe('mcp');
    expect(imported.name).toBe('get_weather');
    expect(imported.document).toEqual({
      id: 'mcp.get_weather',
      version: '0.1.0',
      description: 'Current weather for a city.',
      owner: 'unknown',
      input: weatherInput,
      output: { type: 'object', required: ['celsius'], properties: { celsius: { type: 'number' } } },
      annotations: {
        kind: 'query',
        side_effect_level: 'read_only',
        idempotent: true,
        idempotency_strategy: 'natural',
        confirmation_required: false,
        approval_required: false,
        approver_roles: [],
      },
    });
    expect(compileContract(imported.document)).toMatchObject({ ok: true });
  });

  it('uses the namespace, owner and version options', () => {
    const imported = only([{ name: 'get_weather', description: 'd', inputSchema: weatherInput }], {
      namespace: 'weather_api',
      owner: 'team-geo',
      version: '1.0.0',
    });
    expect(imported.document).toMatchObject({ id: 'weather_api.get_weather', owner: 'team-geo', version: '1.0.0' });
    expect(imported.notes.map((n) => n.path)).not.toContain('$.owner');
  });

  it.each([
    ['no annotations at all: the spec defaults are destructive', undefined, 'destructive', false],
    ['readOnlyHint false, other hints absent', { readOnlyHint: false }, 'destructive', false],
    ['destructiveHint true wins over openWorldHint false', { destructiveHint: true, openWorldHint: false }, 'destructive', false],
    ['destructiveHint false, openWorldHint absent (default true)', { destructiveHint: false }, 'external', false],
    ['destructiveHint false, openWorldHint true', { destructiveHint: false, openWorldHint: true, idempotentHint: true }, 'external', true],
    ['destructiveHint false, openWorldHint false', { destructiveHint: false, openWorldHint: false }, 'write', false],
    ['readOnlyHint true ignores the other hints', { readOnlyHint: true, destructiveHint: true }, 'read_only', true],
    ['non-boolean hints count as absent', { readOnlyHint: 'yes', destructiveHint: 0 }, 'destructive', false],
  ])('%s', (_name, annotations, level, idempotent) => {
    const mapped = annotationsFromMcpHints(annotations);
    expect(mapped.annotations.side_effect_level).toBe(level);
    expect(mapped.annotations.idempotent).toBe(idempotent);
    expect(mapped.annotations.idempotency_strategy).toBe(idempotent ? 'natural' : undefined);
    expect(mapped.annotations.kind).toBe(level === 'read_only' ? 'query' : 'mutation');
    // Every mapped hint is flagged: MCP calls annotations untrusted.
    expect(mapped.notes.map((n) => n.path)).toEqual(['$.annotations.side_effect_level', '$.annotations.idempotent']);
  });

  it('says in the note which hints, given or defaulted, led to the level', () => {
    expect(annotationsFromMcpHints(undefined).notes[0]!.message).toBe(
      'destructive from readOnlyHint absent (MCP default: false), destructiveHint absent (MCP default: true). MCP tool annotations are untrusted hints: confirm the level.',
    );
    expect(annotationsFromMcpHints({ destructiveHint: false, openWorldHint: false }).notes[0]!.message).toBe(
      'write from readOnlyHint absent (MCP default: false), destructiveHint: false and openWorldHint: false. MCP tool annotations are untrusted hints: confirm the level.',
    );
  });

  it('flags what it had to make up: owner, description, missing input schema', () => {
    const imported = only([{ name: 'ping', inputSchema: null, annotations: { title: 'Ping the server' } }]);
    expect(imported.document.description).toBe('Ping the server');
    expect(imported.document.input).toEqual({ type: 'object' });
    expect(imported.notes.map((n) => n.path)).toEqual([
      '$.description',
      '$.owner',
      '$.input',
      '$.annotations.side_effect_level',
      '$.annotations.idempotent',
    ]);
    expect(compileContract(imported.document)).toMatchObject({ ok: true });
  });

  it('drops a draft-07 $schema (which the contract compiler refuses) and says so', () => {
    const input = { $schema: 'http://json-schema.org/draft-07/schema#', type: 'object', properties: { q: { type: 'string' } } };
    const imported = only([{ name: 'search', description: 'Search.', inputSchema: input }]);
    expect(imported.document.input).toEqual({ type: 'object', properties: { q: { type: 'string' } } });
    expect(imported.notes.find((n) => n.path === '$.input')?.message).toMatch(
      /^Removed "\$schema": "http:\/\/json-schema.org\/draft-07\/schema#"/,
    );
    expect(compileContract(imported.document)).toMatchObject({ ok: true });
  });

  it.each(['https://json-schema.org/draft/2020-12/schema', 'https://json-schema.org/draft/2020-12/schema#'])(
    'keeps a 2020-12 $schema (%s) untouched and unflagged',
    ($schema) => {
      const modern = { $schema, type: 'object', properties: { q: { type: 'string' } } };
      const kept = only([{ name: 'search', description: 'Search.', inputSchema: modern }]);
      expect(kept.document.input).toEqual(modern);
      expect(kept.notes.map((n) => n.path)).not.toContain('$.input');
      expect(compileContract(kept.document)).toMatchObject({ ok: true });
    },
  );

  it('reports an input schema the compiler refuses as a compile problem, not an import problem', () => {
    const imported = only([{ name: 'bad', description: 'Bad.', inputSchema: { type: 'object', properties: { a: { type: 'nonsense' } } } }]);
    expect(compileContract(imported.document)).toMatchObject({ ok: false, problems: [{ code: 'CONTRACT_INPUT_SCHEMA_INVALID' }] });
  });
});

describe('MCP export', () => {
  const contracts: ToolContractInput[] = [...EXAMPLE_CONTRACTS, ...CONTRACT_TEMPLATES.map((t) => t.document as ToolContractInput)];

  it('maps a contract onto an MCP tool definition', () => {
    const lookup = CONTRACT_TEMPLATES[0]!.document as ToolContractInput;
    expect(toMcpTool(lookup)).toEqual({
      name: 'orders.lookup',
      description: lookup.description,
      inputSchema: lookup.input,
      outputSchema: lookup.output,
      annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true },
    });
  });

  it('leaves out an output schema that does not describe an object (MCP requires one)', () => {
    const base = CONTRACT_TEMPLATES[0]!.document as ToolContractInput;
    expect(toMcpTool({ ...base, output: { type: 'array' } })).not.toHaveProperty('outputSchema');
    expect(toMcpTool({ ...base, output: undefined })).not.toHaveProperty('outputSchema');
  });

  it.each(contracts.map((c) => [c.id, c] as const))(
    '%s: export then import gives the same id, schemas and description',
    (_id, contract) => {
      const result = importToolDefinitions(JSON.stringify({ tools: [toMcpTool(contract)] }), {
        namespace: '',
        owner: contract.owner,
        version: contract.version,
      });
      expect(result.problems).toEqual([]);
      const document = result.contracts[0]!.document;
      expect(document.id).toBe(contract.id);
      expect(document.description).toBe(contract.description);
      expect(document.input).toEqual(contract.input);
      expect(document.output).toEqual(contract.output);
      expect(compileContract(document)).toMatchObject({ ok: true });
    },
  );

  it.each(SIDE_EFFECT_LEVELS.flatMap((level) => [true, false].map((idempotent) => [level, idempotent] as const)))(
    'side effect %s (idempotent %s) survives a round trip, or comes back more cautious, never less',
    (level, idempotent) => {
      const base = CONTRACT_TEMPLATES[1]!.document as ToolContractInput;
      const contract = { ...base, annotations: { ...base.annotations, side_effect_level: level, idempotent } };
      const [back] = importToolDefinitions(JSON.stringify([toMcpTool(contract)]), { namespace: '' }).contracts;
      const expected = { none: 'read_only', process_exec: 'external' }[level as string] ?? level;
      expect(back!.document.annotations.side_effect_level).toBe(expected);
      expect(compareSideEffectLevels(back!.document.annotations.side_effect_level, level)).toBeGreaterThanOrEqual(0);
      // Read-only tools come back idempotent: repeating a read changes nothing.
      expect(back!.document.annotations.idempotent).toBe(level === 'none' || level === 'read_only' ? true : idempotent);
    },
  );
});
