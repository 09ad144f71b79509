import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { compileContract } from '@/lib/contracts/compile-contract';
import { ToolContractSchema } from '@/lib/contracts/contract-schema';
import { defineTool, isTool, type ToolFailure, type ToolResult } from './define-tool.ts';
import { createUser, searchDocs } from './testing/example-tools.ts';
import { ContractDocumentError } from './zod-to-contract.ts';

function failure<T>(result: ToolResult<T>): ToolFailure {
  if (!result.isError) throw new Error(`expected a failure, got ${JSON.stringify(result.content)}`);
  return result;
}

// The seed's example, verbatim apart from the contract annotations.
const execute = vi.fn(async () => ({ id: '5b7f3c1e-8d2a-4f6b-9c0d-1e2f3a4b5c6d', created: true }));
const seedTool = defineTool({
  name: 'create-user',
  description: 'Create a new user',
  input: z.object({
    email: z.string().email(),
    name: z.string().min(1),
    age: z.number().int().min(0).max(150),
  }),
  output: z.object({
    id: z.string().uuid(),
    created: z.boolean(),
  }),
  contract: { id: 'users.create', owner: 'team-identity', kind: 'mutation', side_effect_level: 'write', idempotent: false },
  execute,
});

describe('defineTool: local validation', () => {
  it('runs execute with validated input and returns the validated output', async () => {
    execute.mockClear();
    const result = await seedTool.run({ email: 'ada@example.com', name: 'Ada', age: 36 });
    expect(result).toMatchObject({ isError: false, content: { id: '5b7f3c1e-8d2a-4f6b-9c0d-1e2f3a4b5c6d', created: true } });
    expect(execute).toHaveBeenCalledWith(
      { email: 'ada@example.com', name: 'Ada', age: 36 },
      expect.objectContaining({ callId: expect.any(String) }),
    );
  });

  it('returns invalid input to the model as an actionable error, without running execute', async () => {
    execute.mockClear();
    const result = failure(await seedTool.run({ email: 'not-an-email', age: 200 }));
    expect(execute).not.toHaveBeenCalled();
    expect(result.stage).toBe('input');
    expect(result.issues.map((i) => [i.code, i.path])).toEqual([
      ['AXAG_INVALID_FORMAT', '$.email'],
      ['AXAG_MISSING_PARAM', '$.name'],
      ['AXAG_OUT_OF_RANGE', '$.age'],
    ]);
    expect(result.content).toBe(
      'The call to create-user was refused with 3 problems. ' +
        '(1) AXAG_INVALID_FORMAT at $.email: email must be a valid email, got "not-an-email". Fix: Send the value in the declared format. ' +
        '(2) AXAG_MISSING_PARAM at $.name: name is required. Fix: Provide the required parameter with a non-null value. ' +
        '(3) AXAG_OUT_OF_RANGE at $.age: age must be <= 150, got 200. Fix: Choose a value inside the declared bounds. ' +
        'Correct the arguments and call create-user again; do not repeat the same call unchanged.',
    );
  });

  it('names types, enums, unknown keys and union shapes the way the server does', async () => {
    const tool = defineTool({
      name: 'orders_search',
      description: 'Search orders',
      input: z.strictObject({
        status: z.enum(['open', 'paid']),
        limit: z.number().int(),
        owner: z.string(),
        key: z.union([z.string(), z.number()]),
        target: z.union([z.object({ kind: z.literal('user'), id: z.string() }), z.object({ kind: z.literal('team'), slug: z.string() })]),
      }),
      output: z.object({}),
      execute: () => ({}),
    });
    const result = failure(await tool.run({ status: 'closed', limit: 1.5, owner: null, key: true, target: { kind: 'user' }, extra: 1 }));
    expect(result.issues.map((i) => `${i.code} ${i.path}: ${i.message}`)).toEqual([
      'AXAG_INVALID_ENUM $.status: status must be one of "open", "paid"; got "closed"',
      'AXAG_INVALID_TYPE $.limit: limit must be integer, got 1.5',
      'AXAG_MISSING_PARAM $.owner: owner is required and must be present and non-null (expected string)',
      'AXAG_INVALID_TYPE $.key: key must be string or number, got true',
      'AXAG_CONSTRAINT_VIOLATION $.target: target must match at least one allowed shape (option 1: target.id is required; option 2: target.kind must equal "team", got "user"), got {"kind":"user"}',
      'AXAG_UNKNOWN_PARAM $.extra: extra is not a declared parameter',
    ]);
  });

  it('reports a required enum, literal or union sent as null as AXAG_MISSING_PARAM, as the server does', async () => {
    const tool = defineTool({
      name: 'orders_filter',
      description: 'Filter orders',
      input: z.object({ status: z.enum(['open', 'paid']), kind: z.literal('order'), key: z.union([z.string(), z.number()]) }),
      output: z.object({}),
      execute: () => ({}),
    });
    const result = failure(await tool.run({ status: null, kind: null, key: null }));
    expect(result.issues.map((i) => `${i.code} ${i.path}: ${i.message}`)).toEqual([
      'AXAG_MISSING_PARAM $.status: status is required and must be present and non-null',
      'AXAG_MISSING_PARAM $.kind: kind is required and must be present and non-null',
      'AXAG_MISSING_PARAM $.key: key is required and must be present and non-null',
    ]);
  });

  it('words record keys, discriminators, exclusive unions and string checks for the model', async () => {
    const tool = defineTool({
      name: 'misc',
      description: 'x',
      input: z.object({
        rec: z.record(z.string().regex(/^[a-z]+$/), z.number()),
        shape: z.discriminatedUnion('k', [z.object({ k: z.literal('a') }), z.object({ k: z.literal('b'), v: z.number() })]),
        one: z.xor([z.object({ a: z.string() }), z.object({ b: z.string() })]),
        slug: z.string().startsWith('x-'),
        list: z.array(z.string()).min(2),
        code: z.string().length(3),
      }),
      output: z.object({}),
      execute: () => ({}),
    });
    const result = failure(
      await tool.run({ rec: { A1: 1 }, shape: { k: 'c' }, one: { a: 'q', b: 'r' }, slug: 'y', list: ['a'], code: 'ab' }),
    );
    expect(result.issues.map((i) => `${i.code} ${i.path}: ${i.message}`)).toEqual([
      'AXAG_CONSTRAINT_VIOLATION $.rec.A1: rec has a key that is not allowed: "A1" must match the pattern "^[a-z]+$", got "A1"',
      'AXAG_INVALID_ENUM $.shape.k: shape.k must be one of "a", "b"; got "c"',
      'AXAG_CONSTRAINT_VIOLATION $.one: one must match exactly one allowed shape, but matches 2, got {"a":"q","b":"r"}',
      'AXAG_PATTERN_MISMATCH $.slug: slug must start with "x-", got "y"',
      'AXAG_INVALID_LENGTH $.list: list must have at least 2 items',
      'AXAG_INVALID_LENGTH $.code: code must have exactly 3 characters',
    ]);
    expect(result.issues[3]?.details).toMatchObject({
      constraint: { keyword: 'pattern', format: 'starts_with' },
      suggestion: 'Send a string starting with "x-".',
    });
  });

  it('reports the same codes at the same paths as the server does for the generated contract', async () => {
    const compiled = compileContract(createUser.toContract({ version: '1.0.0' }));
    if (!compiled.ok) throw new Error(JSON.stringify(compiled.problems));
    const bad = [
      { email: 'x', name: 'A', age: 3 },
      { email: 'a@b.co', name: '', age: 3 },
      { email: 'a@b.co', name: 'A', age: -1 },
      { email: 'a@b.co', name: 'A', age: 'old' },
      { email: 'a@b.co', name: 'A', age: 2.5 },
      { email: 'a@b.co', name: null, age: 3 },
      { email: 'a@b.co', age: 3 },
      {},
    ];
    for (const input of bad) {
      const local = failure(await createUser.run(input)).issues;
      const server = compiled.contract.checkInput(input);
      const key = (i: { code: string; path: string }) => `${i.code} ${i.path}`;
      // Zod checks the email with its own regex, which the contract carries as `pattern`.
      const normalise = (code: string) => (code === 'AXAG_PATTERN_MISMATCH' ? 'AXAG_INVALID_FORMAT' : code);
      expect(local.map(key).sort(), JSON.stringify(input)).toEqual(server.map((i) => key({ ...i, code: normalise(i.code) })).sort());
    }
  });

  it('returns an output that breaks the output schema as an error, with the result withheld', async () => {
    const tool = defineTool({
      name: 'broken_tool',
      description: 'Returns a bad id',
      input: z.object({}),
      output: z.object({ id: z.uuid(), created: z.boolean() }),
      execute: async () => ({ id: 'nope', created: 'yes' }) as never,
    });
    const result = failure(await tool.run({}));
    expect(result.stage).toBe('output');
    expect(result.issues.map((i) => [i.code, i.path, i.details.constraint])).toEqual([
      ['AXAG_OUTPUT_MISMATCH', '$.id', { keyword: 'format', format: 'uuid', mapped_code: 'AXAG_INVALID_FORMAT' }],
      ['AXAG_OUTPUT_MISMATCH', '$.created', { keyword: 'type', type: 'boolean', mapped_code: 'AXAG_INVALID_TYPE' }],
    ]);
    expect(result.content).toContain('broken_tool ran, but its result does not match its declared output schema, so it is not shown.');
    expect(result.content).toContain('(1) AXAG_OUTPUT_MISMATCH at $.id: id must be a valid uuid, got "nope".');
    expect(result.content).toMatch(/Do not assume the action succeeded or failed/);
  });

  it('returns whatever execute throws as an error instead of throwing', async () => {
    for (const thrown of [new Error('database timeout'), 'plain string', undefined, { code: 'E42' }]) {
      const tool = defineTool({
        name: 'throwing_tool',
        description: 'Fails',
        input: z.object({}),
        output: z.object({}),
        execute: async () => {
          throw thrown;
        },
      });
      const result = failure(await tool.run({}));
      expect(result.stage).toBe('execute');
      expect(result.error).toBe(thrown);
      expect(result.content).toMatch(/^throwing_tool failed while running: .+\. The arguments were valid/);
    }
  });

  it('never throws, whatever the model sends', async () => {
    for (const raw of [undefined, null, 'text', 42, [], { email: { $gt: '' } }, Object.create(null)]) {
      await expect(seedTool.run(raw)).resolves.toMatchObject({ isError: true, stage: 'input' });
    }
  });

  it('applies defaults before execute and reports the input as "arguments" at the root', async () => {
    const result = await searchDocs.run({ query: 'zod' });
    expect(result.isError).toBe(false);
    expect(!result.isError && result.content.hits[0]?.url).toContain('limit=10');
    const root = failure(await searchDocs.run('zod'));
    expect(root.issues[0]?.message).toBe('arguments must be object, got "zod"');
  });
});

describe('defineTool: definition for the model', () => {
  it("keeps the seed's descriptions and defaults; the only extra key Zod 4 adds is stripped", () => {
    const search = defineTool({
      name: 'search',
      description: 'Search',
      input: z.object({
        query: z.string().describe('Search query'),
        limit: z.number().optional().default(10),
      }),
      output: z.object({}),
      execute: () => ({}),
    });
    // z.toJSONSchema adds `$schema` (dropped: models do not need it). It adds nothing else
    // because the definition uses Zod's input view: with the default output view, `limit`
    // would be listed as required and `additionalProperties: false` would appear.
    expect(search.definition).toEqual({
      name: 'search',
      description: 'Search',
      parameters: {
        type: 'object',
        properties: {
          query: { type: 'string', description: 'Search query' },
          limit: { type: 'number', default: 10 },
        },
        required: ['query'],
      },
    });
  });

  it('keeps format hints for the model (email format included)', () => {
    const properties = createUser.definition.parameters.properties as Record<string, Record<string, unknown>>;
    expect(properties.email).toMatchObject({ type: 'string', format: 'email', description: "The new user's e-mail address" });
    expect(properties.age).toEqual({ type: 'integer', minimum: 0, maximum: 150 });
  });
});

describe('defineTool: contracts', () => {
  it("builds a contract document the repo's contract schema and compiler accept", () => {
    const document = seedTool.toContract({ version: '1.2.0', description: 'Creates a user account.' });
    expect(ToolContractSchema.safeParse(document).success).toBe(true);
    expect(compileContract(document).ok).toBe(true);
    expect(document).toMatchObject({
      id: 'users.create',
      version: '1.2.0',
      description: 'Creates a user account.',
      owner: 'team-identity',
      annotations: {
        kind: 'mutation',
        side_effect_level: 'write',
        idempotent: false,
        confirmation_required: false,
        approval_required: false,
        approver_roles: [],
      },
      output: { type: 'object', required: ['id', 'created'] },
    });
    expect(document.input).not.toHaveProperty('$schema');
  });

  it('lets toContract override what defineTool declared, but not with undefined', () => {
    const document = seedTool.toContract({ version: '2.0.0', owner: undefined, approval_required: true, approver_roles: ['approver'] });
    expect(document.owner).toBe('team-identity');
    expect(document.annotations).toMatchObject({ approval_required: true, approver_roles: ['approver'] });
  });

  it('refuses to guess missing ids, versions, owners and safety annotations', () => {
    const bare = defineTool({ name: 'create-user', description: 'x', input: z.object({}), output: z.object({}), execute: () => ({}) });
    let error: unknown;
    try {
      bare.toContract();
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ContractDocumentError);
    expect((error as ContractDocumentError).problems.map((p) => p.path)).toEqual([
      'id',
      'version',
      'owner',
      'annotations.kind',
      'annotations.side_effect_level',
      'annotations.idempotent',
    ]);
    expect(() =>
      bare.toContract({ id: 'Users', version: 'v1', owner: 'x', kind: 'query', side_effect_level: 'none', idempotent: true }),
    ).toThrow(/"Users" is not a contract id[\s\S]*"v1" is not a semantic version/);
  });

  it('uses a dotted name as the contract id', () => {
    const dotted = defineTool({ name: 'orders.lookup', description: 'x', input: z.object({}), output: z.object({}), execute: () => ({}) });
    expect(dotted.contractId).toBe('orders.lookup');
    expect(seedTool.contractId).toBe('users.create');
  });

  it('refuses non-object inputs and delegation without a contract id at definition time', () => {
    expect(() =>
      defineTool({ name: 'x', description: 'x', input: z.string() as never, output: z.object({}), execute: () => ({}) }),
    ).toThrow(/must be z\.object/);
    const client = {} as never;
    expect(() =>
      defineTool({ name: 'x', description: 'x', input: z.object({}), output: z.object({}), execute: () => ({}), toolgate: client }),
    ).toThrow(/needs a contract id/);
  });

  it('is recognised by isTool, including across module copies', () => {
    expect(isTool(seedTool)).toBe(true);
    expect(isTool({ ...seedTool })).toBe(true);
    expect(isTool({ name: 'x', run: () => undefined })).toBe(false);
  });
});
