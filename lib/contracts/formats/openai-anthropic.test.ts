import { describe, expect, it } from 'vitest';
import { compileContract } from '../compile-contract';
import { TOOL_ID_PATTERN, type ToolContractInput } from '../contract-schema';
import { EXAMPLE_CONTRACTS } from '../examples';
import { CONTRACT_TEMPLATES } from '../templates';
import { toAnthropicTool } from './anthropic';
import { providerToolName } from './draft-contract';
import { exportToolDefinition } from './index';
import { importToolDefinitions } from './import-tool-definitions';
import { toOpenAiTool } from './openai';

const parameters = {
  type: 'object',
  required: ['location'],
  additionalProperties: false,
  properties: { location: { type: 'string', description: 'City and country' } },
};

const cautious = {
  kind: 'mutation',
  side_effect_level: 'destructive',
  idempotent: false,
  confirmation_required: false,
  approval_required: false,
  approver_roles: [],
};

const contracts: ToolContractInput[] = [...EXAMPLE_CONTRACTS, ...CONTRACT_TEMPLATES.map((t) => t.document as ToolContractInput)];

describe('OpenAI import', () => {
  it.each([
    ['Chat Completions', { type: 'function', function: { name: 'get_weather', description: 'Weather now.', parameters, strict: true } }],
    ['Responses API', { type: 'function', name: 'get_weather', description: 'Weather now.', parameters, strict: true }],
    ['legacy functions entry', { name: 'get_weather', description: 'Weather now.', parameters }],
  ])('reads the %s shape, with the most cautious side effects flagged for review', (_shape, tool) => {
    const result = importToolDefinitions(JSON.stringify([tool]));
    expect(result.problems).toEqual([]);
    const [imported] = result.contracts;
    expect(imported!.source).toBe('openai');
    expect(imported!.document).toEqual({
      id: 'openai.get_weather',
      version: '0.1.0',
      description: 'Weather now.',
      owner: 'unknown',
      input: parameters,
      annotations: cautious,
    });
    expect(imported!.notes.map((n) => n.path)).toEqual(['$.owner', '$.annotations.side_effect_level', '$.annotations.idempotent']);
    expect(imported!.notes[1]!.message).toBe(
      'OpenAI tool definitions carry no safety hints, so the most cautious level is set: lower it to what the tool really does.',
    );
    expect(compileContract(imported!.document)).toMatchObject({ ok: true });
  });

  it('reads omitted parameters as "no arguments", as OpenAI does', () => {
    const [imported] = importToolDefinitions(
      JSON.stringify({ type: 'function', function: { name: 'now', description: 'The time.' } }),
    ).contracts;
    expect(imported!.document.input).toEqual({ type: 'object', properties: {}, additionalProperties: false });
    expect(compileContract(imported!.document)).toMatchObject({ ok: true });
  });

  it('reads the tools of a request body', () => {
    const body = { model: 'gpt-4.1', tools: [{ type: 'function', function: { name: 'a', parameters } }, { type: 'web_search_preview' }] };
    const result = importToolDefinitions(JSON.stringify(body));
    expect(result.contracts.map((c) => c.document.id)).toEqual(['openai.a']);
    expect(result.problems).toEqual([
      {
        code: 'IMPORT_TOOL_UNRECOGNIZED',
        path: '$.tools[1]',
        message: 'A tool of type "web_search_preview" is a built-in tool of its platform, with no schema to import.',
      },
    ]);
  });
});

describe('Anthropic import', () => {
  it('reads a custom tool, with the most cautious side effects flagged for review', () => {
    const tool = {
      name: 'get_stock_price',
      description: 'Latest price of a ticker.',
      input_schema: { type: 'object', properties: { ticker: { type: 'string' } }, required: ['ticker'] },
    };
    const result = importToolDefinitions(JSON.stringify({ tools: [tool] }), { owner: 'team-markets' });
    expect(result.problems).toEqual([]);
    const [imported] = result.contracts;
    expect(imported!.source).toBe('anthropic');
    expect(imported!.document).toEqual({
      id: 'anthropic.get_stock_price',
      version: '0.1.0',
      description: 'Latest price of a ticker.',
      owner: 'team-markets',
      input: tool.input_schema,
      annotations: cautious,
    });
    expect(imported!.notes.map((n) => n.path)).toEqual(['$.annotations.side_effect_level', '$.annotations.idempotent']);
    expect(imported!.notes[0]!.message).toMatch(/^Anthropic tool definitions carry no safety hints/);
    expect(compileContract(imported!.document)).toMatchObject({ ok: true });
  });

  it('refuses Anthropic server tools, which have no schema', () => {
    const result = importToolDefinitions(JSON.stringify([{ type: 'bash_20250124', name: 'bash' }]));
    expect(result.contracts).toEqual([]);
    expect(result.problems).toMatchObject([{ code: 'IMPORT_TOOL_UNRECOGNIZED', path: '$[0]' }]);
  });
});

describe('OpenAI and Anthropic export', () => {
  const lookup = CONTRACT_TEMPLATES[0]!.document as ToolContractInput;

  it('writes both OpenAI shapes with strict mode off and a provider-safe name', () => {
    expect(toOpenAiTool(lookup, 'chat_completions')).toEqual({
      type: 'function',
      function: { name: 'orders_lookup', description: lookup.description, parameters: lookup.input, strict: false },
    });
    expect(toOpenAiTool(lookup, 'responses')).toEqual({
      type: 'function',
      name: 'orders_lookup',
      description: lookup.description,
      parameters: lookup.input,
      strict: false,
    });
    expect(exportToolDefinition(lookup, 'openai_responses')).toEqual(toOpenAiTool(lookup, 'responses'));
  });

  it('writes an Anthropic tool', () => {
    expect(toAnthropicTool(lookup)).toEqual({ name: 'orders_lookup', description: lookup.description, input_schema: lookup.input });
    expect(exportToolDefinition(lookup, 'anthropic')).toEqual(toAnthropicTool(lookup));
  });

  it('keeps provider names within [A-Za-z0-9_-]{1,64}, and distinct for long ids', () => {
    const long = `a.${'b'.repeat(70)}`;
    const other = `a.${'b'.repeat(69)}c`;
    expect(providerToolName(long)).toMatch(/^[A-Za-z0-9_-]{1,64}$/);
    expect(providerToolName(long)).not.toBe(providerToolName(other));
    expect(providerToolName('cart.begin_checkout')).toBe('cart_begin_checkout');
  });

  it.each(
    contracts.flatMap((c) => (['openai_chat_completions', 'openai_responses', 'anthropic'] as const).map((f) => [c.id, f, c] as const)),
  )('%s as %s: export then import gives the same input schema and a compiling draft', (_id, format, contract) => {
    const result = importToolDefinitions(JSON.stringify(exportToolDefinition(contract, format)));
    expect(result.problems).toEqual([]);
    const document = result.contracts[0]!.document;
    expect(document.input).toEqual(contract.input);
    expect(document.description).toBe(contract.description);
    expect(document.id).toMatch(TOOL_ID_PATTERN);
    expect(document.id).toBe(`${format === 'anthropic' ? 'anthropic' : 'openai'}.${contract.id.replace(/\./g, '_')}`);
    // Scope paths etc. are not carried by these formats, so the bare draft compiles on its own.
    expect(compileContract(document)).toMatchObject({ ok: true });
  });
});
