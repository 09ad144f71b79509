import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { compileContract } from '@/lib/contracts/compile-contract';
import { findUnsupportedConstructs, regexProblem } from './supported-zod-subset.ts';
import { toJsonSchema, zodToContract } from './zod-to-contract.ts';

const annotations = { kind: 'query', side_effect_level: 'read_only', idempotent: true } as const;

describe('toJsonSchema', () => {
  it('is the 2020-12 input view without $schema', () => {
    const schema = toJsonSchema(z.object({ q: z.string(), n: z.number().default(3) }));
    expect(schema).toEqual({ type: 'object', properties: { q: { type: 'string' }, n: { type: 'number', default: 3 } }, required: ['q'] });
  });

  it('drops format "email" from contracts (ajv-formats is stricter than Zod) but keeps it for the model', () => {
    const input = z.object({ to: z.email(), cc: z.array(z.email()).optional(), nested: z.object({ from: z.email() }).optional() });
    const contract = toJsonSchema(input, 'contract');
    const llm = toJsonSchema(input, 'llm');
    const contractProps = contract.properties as Record<string, Record<string, unknown>>;
    expect(contractProps.to).not.toHaveProperty('format');
    expect(contractProps.to).toHaveProperty('pattern');
    expect(contractProps.to?.$comment).toMatch(/ajv-formats' email check is stricter/);
    expect(JSON.stringify(contract)).not.toContain('"format":"email"');
    expect((llm.properties as Record<string, Record<string, unknown>>).to).toMatchObject({ format: 'email' });
  });

  it('keeps formats Ajv reproduces and drops names Zod writes that are no JSON Schema format', () => {
    const schema = toJsonSchema(
      z.object({
        id: z.uuid(),
        g: z.guid(),
        d: z.iso.date(),
        at: z.iso.datetime(),
        ip: z.ipv4(),
        s: z.string().startsWith('x').includes('y').lowercase(),
      }),
    );
    const props = schema.properties as Record<string, Record<string, unknown>>;
    expect([props.id?.format, props.g?.format, props.d?.format, props.at?.format, props.ip?.format]).toEqual([
      'uuid',
      'uuid',
      'date',
      'date-time',
      'ipv4',
    ]);
    expect(props.s).not.toHaveProperty('format');
    expect(props.s).toHaveProperty('allOf');
  });

  it('leaves a property named "format" alone', () => {
    const schema = toJsonSchema(z.object({ format: z.enum(['csv', 'json']) }));
    expect((schema.properties as Record<string, unknown>).format).toEqual({ type: 'string', enum: ['csv', 'json'] });
  });
});

describe('zodToContract', () => {
  it('produces a contract that compiles, for every supported construct at once', () => {
    const leaf = z.object({ name: z.string() });
    type Node = { name: string; children: Node[] };
    const node: z.ZodType<Node> = z.lazy(() => z.object({ name: z.string(), children: z.array(node) }));
    const input = z.strictObject({
      email: z.email(),
      id: z.uuid(),
      day: z.iso.date(),
      at: z.iso.datetime({ offset: true }),
      t: z.iso.time(),
      ip: z.ipv4(),
      code: z.string().regex(/^[A-Z]{3}-\d{4}$/),
      slug: z.string().startsWith('x-').endsWith('-y').includes('m').uppercase().min(3).max(20),
      n: z.number().int().min(0).max(1000).multipleOf(5),
      f: z.number().gt(0).lt(1),
      i32: z.int32(),
      e: z.enum(['a', 'b']),
      lit: z.literal(['x', 1, true, null]),
      u: z.union([z.string(), z.number()]),
      du: z.discriminatedUnion('k', [z.object({ k: z.literal('a') }), z.object({ k: z.literal('b'), v: z.number() })]),
      x: z.xor([z.object({ a: z.string() }), z.object({ b: z.string() })]),
      list: z.array(leaf).min(1).max(5),
      tuple: z.tuple([z.string(), z.number()]),
      rec: z.record(z.string(), z.number()),
      prec: z.partialRecord(z.enum(['a', 'b']), z.boolean()),
      both: z.intersection(leaf, z.object({ age: z.number() })),
      opt: z.string().optional(),
      def: z.number().default(1),
      nul: z.string().nullable(),
      ro: z.array(z.string()).readonly(),
      loose: z.looseObject({ a: z.string() }),
      any: z.unknown(),
      lazy: z.lazy(() => leaf),
      tree: node,
    });
    const document = zodToContract({
      id: 'everything.at_once',
      version: '1.0.0',
      description: 'Every supported construct.',
      owner: 'tests',
      ...annotations,
      input,
      output: leaf,
    });
    const compiled = compileContract(document);
    expect(compiled.ok ? [] : compiled.problems).toEqual([]);
    expect(JSON.stringify(document.input)).toContain('"$ref":"#/');
    const deep = { name: 'a', children: [{ name: 'b', children: [{ name: 3, children: [] }] }] };
    expect(
      compiled.ok && compiled.contract.checkInput({ tree: deep }).find((i) => i.path === '$.tree.children[0].children[0].name')?.code,
    ).toBe('AXAG_INVALID_TYPE');
  });

  it('passes the other contract fields through and validates them', () => {
    const input = z.object({ tenant_id: z.string(), card: z.object({ last4: z.string() }).optional() });
    const document = zodToContract({
      id: 'cards.lookup',
      version: '1.0.0-beta.1',
      description: 'Find a card.',
      owner: 'payments',
      ...annotations,
      input,
      scope: { tenant: 'tenant_id' },
      sensitive: ['card.last4'],
      preconditions: [{ id: 'has_tenant', expression: 'size(args.tenant_id) > 0', message: 'tenant needed' }],
      timeout_ms: 500,
    });
    expect(document).toMatchObject({
      scope: { tenant: 'tenant_id' },
      sensitive: ['card.last4'],
      timeout_ms: 500,
      annotations: { approval_required: false },
    });
    expect(compileContract(document).ok).toBe(true);
    expect(() =>
      zodToContract({ id: 'cards.lookup', version: '1.0.0', description: 'x', owner: 'p', ...annotations, input, timeout_ms: -1 }),
    ).toThrow(/timeout_ms/);
  });

  it('refuses an input that is not an object', () => {
    expect(() =>
      zodToContract({ id: 'a.b', version: '1.0.0', description: 'x', owner: 'o', ...annotations, input: z.array(z.string()) }),
    ).toThrow(/tool arguments are a JSON object/);
  });
});

describe('the supported subset', () => {
  it('lists every problem with its path', () => {
    const problems = findUnsupportedConstructs(
      z.object({
        when: z.date(),
        tags: z.array(z.object({ v: z.string().trim() })),
        alt: z.union([z.string(), z.bigint()]),
        m: z.map(z.string(), z.string()),
      }),
      'input',
    );
    expect(problems.map((p) => p.path)).toEqual(['input.when', 'input.tags[].v', 'input.alt.<option 2>', 'input.m']);
    expect(problems[0]?.message).toMatch(/use z\.iso\.date\(\)/);
  });

  it('walks recursive schemas once', () => {
    type Node = { name: string; children: Node[] };
    const node: z.ZodType<Node> = z.lazy(() => z.object({ name: z.string(), children: z.array(node) }));
    expect(findUnsupportedConstructs(z.object({ root: node }))).toEqual([]);
  });

  it('allows multipleOf only where both engines compute it exactly', () => {
    expect(findUnsupportedConstructs(z.object({ n: z.number().int().min(0).max(1e6).multipleOf(5) }))).toEqual([]);
    expect(findUnsupportedConstructs(z.object({ n: z.int32().multipleOf(2) }))).toEqual([]);
    expect(findUnsupportedConstructs(z.object({ n: z.int().multipleOf(5) }))).toHaveLength(1);
    expect(findUnsupportedConstructs(z.object({ n: z.number().min(0).max(10).multipleOf(5) }))).toHaveLength(1);
    expect(findUnsupportedConstructs(z.object({ n: z.number().int().min(0).max(10).multipleOf(0.5) }))).toHaveLength(1);
  });

  it('reads regexes the way both engines do', () => {
    expect(regexProblem(/^[A-Z]{3}-\d{4}$/)).toBeNull();
    expect(regexProblem(/^[^x]+$/u)).toBeNull();
    expect(regexProblem(/^[.]$/)).toBeNull();
    expect(regexProblem(/^a\.b$/)).toBeNull();
    expect(regexProblem(/^a.b$/)).toMatch(/"\."/);
    expect(regexProblem(/^[\s]$/)).toMatch(/\\s/);
    expect(regexProblem(/^(a)\1$/)).toMatch(/backreferences/);
    expect(regexProblem(/^(?<=a)b$/)).toMatch(/lookaround/);
    expect(regexProblem(/^(?<year>\d{4})$/)).toBeNull();
    expect(regexProblem(/^\W$/)).toMatch(/u flag/);
    expect(regexProblem(/^a$/g)).toMatch(/flags "g"/);
  });
});
