import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { compileContract, type CompiledContract } from '@/lib/contracts/compile-contract';
import { createContractAjv } from '@/lib/contracts/json-schema-engine';
import { defineTool } from './define-tool';
import { UnsupportedSchemaError } from './supported-zod-subset';
import { zodToContract } from './zod-to-contract';

/**
 * The agent checks arguments with Zod, the server with Ajv against the contract generated from
 * the same Zod schema. This file holds the two to the same verdict on random inputs: valid
 * shapes, mutated ones and plain random JSON, always after a JSON round trip (which is what
 * the server receives).
 */

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

function compile(input: z.ZodObject): CompiledContract {
  const document = zodToContract({ id: 'agreement.case', version: '1.0.0', description: 'Agreement test case.', owner: 'tests', kind: 'query', side_effect_level: 'none', idempotent: true, input });
  const compiled = compileContract(document);
  if (!compiled.ok) throw new Error(`contract does not compile: ${JSON.stringify(compiled.problems)}`);
  return compiled.contract;
}

// ---- leaf generators: near the boundaries each schema draws, so both verdicts come up often

const boundaryNumbers = fc.constantFrom(0, -0, 1, -1, 0.5, 1.5, 4, 5, 9, 10, 11, 99, 100, 101, 149, 150, 151, -1e-9, 999_999.99, 1e6, 2 ** 31, 2 ** 53 - 1, 2 ** 53, -(2 ** 53), 1e21, 1e308, Number.MIN_VALUE, -273.15, -273.16);
const numbers = fc.oneof(boundaryNumbers, fc.integer({ min: -200, max: 200 }), fc.double({ noNaN: true, noDefaultInfinity: true, min: -1e6, max: 1e6 }), fc.double({ noNaN: true, noDefaultInfinity: true }));
const bmpChar = fc.integer({ min: 0, max: 0xffff }).filter((c) => c < 0xd800 || c > 0xdfff).map((c) => String.fromCharCode(c));
const text = fc.oneof(fc.string({ maxLength: 8 }), fc.string({ unit: bmpChar, maxLength: 8 }), fc.string({ unit: 'binary', maxLength: 6 }), fc.string({ unit: 'grapheme', maxLength: 4 }));

const label = fc.stringMatching(/^[a-zA-Z0-9-]{0,5}$/);
const emailish = fc.oneof(
  fc.emailAddress(),
  fc.tuple(fc.stringMatching(/^[a-zA-Z0-9._'+!#-]{0,6}$/), fc.array(label, { minLength: 1, maxLength: 3 }), fc.stringMatching(/^[a-zA-Z0-9-]{0,4}$/)).map(([local, labels, tld]) => `${local}@${[...labels, tld].join('.')}`),
  fc.constantFrom('a@b-.com', 'a@-b.com', 'a.@b.co', '.a@b.co', 'a..b@c.de', "o'neil@example.com", 'a@b.c', 'a@b.co1', 'A@B.CO', 'a@b', 'a b@c.de'),
);
const hex = (n: number) => fc.stringMatching(new RegExp(`^[0-9a-fA-Fg]{${n}}$`));
const uuidish = fc.oneof(
  fc.uuid(),
  fc.tuple(hex(8), hex(4), hex(4), hex(4), hex(12)).map((parts) => parts.join('-')),
  fc.constantFrom('00000000-0000-0000-0000-000000000000', 'ffffffff-ffff-ffff-ffff-ffffffffffff', 'FFFFFFFF-FFFF-FFFF-FFFF-FFFFFFFFFFFF', 'urn:uuid:123e4567-e89b-12d3-a456-426614174000', '123e4567e89b12d3a456426614174000'),
);
const year = fc.oneof(fc.constantFrom('0000', '0400', '1900', '2000', '2023', '2024', '2100', '9999'), fc.stringMatching(/^\d{4}$/));
const dateish = fc.oneof(
  fc.tuple(year, fc.stringMatching(/^(0\d|1[0-3])$/), fc.stringMatching(/^([0-3]\d)$/)).map((p) => p.join('-')),
  fc.tuple(year, fc.constantFrom('02'), fc.constantFrom('28', '29', '30')).map((p) => p.join('-')),
  fc.constantFrom('2024-1-01', '20240101', '2024-01-01T00:00:00Z', '+2024-01-01'),
);
const clock = fc.tuple(fc.stringMatching(/^([01]\d|2[0-4])$/), fc.stringMatching(/^[0-6]\d$/)).map(([h, m]) => `${h}:${m}`);
const seconds = fc.tuple(fc.stringMatching(/^[0-6]\d$/), fc.constantFrom('', '.5', '.123', '.123456789')).map(([s, f]) => `:${s}${f}`);
const zone = fc.constantFrom('Z', 'Z', 'z', '', '+01:00', '-23:59', '+24:00', '+0100', '+05:30');
const timeish = fc.tuple(clock, fc.oneof(fc.constant(''), seconds), fc.constantFrom('', '', 'Z')).map((p) => p.join(''));
const datetimeish = fc.tuple(dateish, fc.constantFrom('T', 'T', 't', ' '), clock, fc.oneof(seconds, fc.constant('')), zone).map(([d, sep, c, s, z]) => `${d}${sep}${c}${s}${z}`);
const ipv4ish = fc.oneof(fc.ipV4(), fc.ipV4Extended(), fc.stringMatching(/^\d{1,3}\.\d{1,3}\.\d{1,3}\.\d{1,3}$/));

const interesting: fc.Arbitrary<Json> = fc.oneof(
  numbers,
  text,
  emailish,
  uuidish,
  dateish,
  datetimeish,
  ipv4ish,
  fc.constantFrom<Json>(null, true, false, '', 'EUR', 'eur', 'asc', 'user', 'team', 'circle', 'rect', 'fast', 'x-abc', 'X-abc', 'ABCD', 'abc', [], {}, 1, 2, 3),
  fc.jsonValue({ maxDepth: 2 }) as fc.Arbitrary<Json>,
);

// ---- mutation: change one spot of a (usually valid) value

type Path = (string | number)[];

function containerPaths(value: Json, prefix: Path = []): Path[] {
  const found: Path[] = [];
  if (Array.isArray(value)) value.forEach((item, i) => found.push([...prefix, i], ...containerPaths(item, [...prefix, i])));
  else if (value !== null && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) found.push([...prefix, key], ...containerPaths(item, [...prefix, key]));
  }
  return found;
}

function mutate(value: Json, pick: number, op: 'replace' | 'delete' | 'add', replacement: Json, extraKey: string): Json {
  const copy = JSON.parse(JSON.stringify(value)) as Json;
  const targets = containerPaths(copy);
  if (targets.length === 0) return replacement;
  const path = targets[pick % targets.length]!;
  let parent: Json = copy;
  for (const segment of path.slice(0, -1)) parent = (parent as Record<string | number, Json>)[segment]!;
  const last = path[path.length - 1]!;
  const container = parent as Record<string | number, Json>;
  if (op === 'replace') container[last] = replacement;
  else if (op === 'delete') {
    if (Array.isArray(parent)) parent.splice(last as number, 1);
    else delete container[last];
  } else {
    const target = container[last];
    if (Array.isArray(target)) target.push(replacement);
    else if (target !== null && typeof target === 'object') target[extraKey] = replacement;
    else container[last] = replacement;
  }
  return copy;
}

const mutated = (valid: fc.Arbitrary<Json>) =>
  fc.tuple(valid, fc.nat(), fc.constantFrom('replace', 'replace', 'delete', 'add') as fc.Arbitrary<'replace' | 'delete' | 'add'>, interesting, fc.constantFrom('extra', 'note', 'email', 'constructor', '__proto__')).map(
    ([value, pick, op, replacement, key]) => mutate(value, pick, op, replacement, key),
  );

function inputsFor(valid: fc.Arbitrary<Json>): fc.Arbitrary<Json> {
  return fc
    .oneof(
      { arbitrary: valid, weight: 4 },
      { arbitrary: mutated(valid), weight: 4 },
      { arbitrary: mutated(mutated(valid)), weight: 1 },
      { arbitrary: fc.jsonValue({ maxDepth: 3 }) as fc.Arbitrary<Json>, weight: 1 },
    )
    .map((value) => JSON.parse(JSON.stringify(value)) as Json);
}

const opt = <T>(arbitrary: fc.Arbitrary<T>) => fc.option(arbitrary, { nil: undefined, freq: 3 });
/** Mostly `valid`, sometimes a near miss: the mutations below supply most of the invalid inputs. */
const near = <T, U>(valid: fc.Arbitrary<T>, miss: fc.Arbitrary<U>) => fc.oneof({ arbitrary: valid, weight: 12 }, { arbitrary: miss, weight: 1 });

const validEmail = fc
  .tuple(fc.stringMatching(/^[a-z0-9_+'-]{1,6}(\.[a-z0-9]{1,4})?$/), fc.stringMatching(/^[a-z0-9]{1,5}(-[a-z0-9]{1,3})?$/), fc.stringMatching(/^[a-z]{2,4}$/))
  .map(([local, domain, tld]) => `${local}@${domain}.${tld}`);
const validDate = fc.date({ min: new Date('0001-01-01T00:00:00Z'), max: new Date('9999-12-31T23:59:59Z'), noInvalidDate: true });
const validDay = validDate.map((d) => d.toISOString().slice(0, 10));
const validDatetime = validDate.map((d) => d.toISOString());
const validTime = fc.tuple(fc.integer({ min: 0, max: 23 }), fc.integer({ min: 0, max: 59 }), fc.option(fc.integer({ min: 0, max: 59 }))).map(
  ([h, m, sec]) => [h, m, ...(sec === null ? [] : [sec])].map((n) => String(n).padStart(2, '0')).join(':'),
);
const shortText = fc.string({ unit: bmpChar, minLength: 1, maxLength: 8 });

// ---- the cases the SDK must support

const cases: { name: string; schema: z.ZodObject; valid: fc.Arbitrary<Json> }[] = [
  {
    name: 'objects (nested, optional, nullable)',
    schema: z.object({
      email: z.email(),
      name: z.string().min(1).max(20),
      age: z.number().int().min(0).max(150),
      address: z.object({ city: z.string(), zip: z.string().regex(/^\d{5}$/) }).optional(),
      admin: z.boolean().nullable(),
    }),
    valid: fc.record({
      email: near(validEmail, emailish),
      name: near(shortText, text),
      age: near(fc.integer({ min: 0, max: 150 }), boundaryNumbers),
      address: opt(fc.record({ city: text, zip: near(fc.stringMatching(/^\d{5}$/), fc.stringMatching(/^\d{4,6}$/)) })),
      admin: fc.option(fc.boolean(), { nil: null }),
    }) as fc.Arbitrary<Json>,
  },
  {
    name: 'arrays of objects (the seed\'s filters)',
    schema: z.object({
      filters: z.array(z.object({ field: z.string(), operator: z.enum(['eq', 'gt', 'lt', 'contains']), value: z.union([z.string(), z.number()]) })).max(5),
      sort: z.object({ field: z.string(), direction: z.enum(['asc', 'desc']) }).optional(),
    }),
    valid: fc.record({
      filters: fc.array(fc.record({ field: text, operator: near(fc.constantFrom('eq', 'gt', 'lt', 'contains'), fc.constantFrom('ne', 'EQ')), value: fc.oneof(text, numbers) }), { maxLength: 5 }),
      sort: opt(fc.record({ field: text, direction: near(fc.constantFrom('asc', 'desc'), fc.constant('ASC')) })),
    }) as fc.Arbitrary<Json>,
  },
  {
    name: 'enums and literals',
    schema: z.object({
      currency: z.enum(['EUR', 'USD', 'GBP']),
      mode: z.literal('fast').optional(),
      level: z.enum({ Low: 1, High: 2 }),
      flags: z.array(z.enum(['a', 'b'])).optional(),
    }),
    valid: fc.record({
      currency: near(fc.constantFrom('EUR', 'USD', 'GBP'), fc.constantFrom('eur', 'JPY')),
      mode: opt(near(fc.constant('fast'), fc.constant('slow'))),
      level: near(fc.constantFrom(1, 2), fc.constantFrom(3, '1')),
      flags: opt(fc.array(near(fc.constantFrom('a', 'b'), fc.constant('c')), { maxLength: 3 })),
    }) as fc.Arbitrary<Json>,
  },
  {
    name: 'unions (primitive, object, discriminated)',
    schema: z.object({
      value: z.union([z.string(), z.number(), z.null()]),
      target: z.union([z.object({ kind: z.literal('user'), id: z.uuid() }), z.object({ kind: z.literal('team'), slug: z.string().regex(/^[a-z-]+$/) })]),
      shape: z.discriminatedUnion('type', [z.object({ type: z.literal('circle'), r: z.number().positive() }), z.object({ type: z.literal('rect'), w: z.number(), h: z.number() })]),
    }),
    valid: fc.record({
      value: fc.oneof(text, numbers, fc.constant(null), fc.boolean()),
      target: fc.oneof(
        fc.record({ kind: near(fc.constant('user'), fc.constant('team')), id: near(fc.uuid(), uuidish) }),
        fc.record({ kind: near(fc.constant('team'), fc.constant('user')), slug: near(fc.stringMatching(/^[a-z-]{1,6}$/), fc.stringMatching(/^[a-zA-Z-]{0,6}$/)) }),
      ),
      shape: fc.oneof(
        fc.record({ type: near(fc.constant('circle'), fc.constant('rect')), r: near(fc.double({ min: 0.001, max: 1e6, noNaN: true }), numbers) }),
        fc.record({ type: near(fc.constant('rect'), fc.constant('square')), w: numbers, h: numbers }),
      ),
    }) as fc.Arbitrary<Json>,
  },
  {
    name: 'optional with default',
    schema: z.object({
      query: z.string().describe('Search query'),
      limit: z.number().int().min(1).max(100).optional().default(10),
      page: z.number().int().min(1).default(1),
      tags: z.array(z.string()).default([]),
      exact: z.boolean().default(false),
    }),
    valid: fc.record({
      query: text,
      limit: opt(near(fc.integer({ min: 1, max: 100 }), boundaryNumbers)),
      page: opt(near(fc.integer({ min: 1, max: 1000 }), fc.constantFrom(0, 1.5))),
      tags: opt(fc.array(text, { maxLength: 3 })),
      exact: opt(fc.boolean()),
    }) as fc.Arbitrary<Json>,
  },
  {
    name: 'numbers with min/max/int',
    schema: z.object({
      age: z.number().int().min(0).max(150),
      price: z.number().positive().lt(1_000_000),
      ratio: z.number().min(0).max(1),
      step: z.number().int().min(-1_000_000).max(1_000_000).multipleOf(5),
      count: z.int(),
      small: z.int32().optional(),
      temp: z.number().gt(-273.15),
    }),
    valid: fc.record({
      age: near(fc.integer({ min: 0, max: 150 }), boundaryNumbers),
      price: near(fc.double({ noNaN: true, min: Number.MIN_VALUE, max: 999_999.99 }), boundaryNumbers),
      ratio: near(fc.double({ noNaN: true, min: 0, max: 1 }), boundaryNumbers),
      step: near(fc.integer({ min: -200_000, max: 200_000 }).map((n) => n * 5), numbers),
      count: near(fc.integer(), boundaryNumbers),
      small: opt(near(fc.integer(), fc.constantFrom(2 ** 31, -(2 ** 31) - 1, 0.5))),
      temp: near(fc.double({ noNaN: true, min: -273.1, max: 1e4 }), boundaryNumbers),
    }) as fc.Arbitrary<Json>,
  },
  {
    name: 'email, uuid, date and time formats',
    schema: z.object({
      email: z.email(),
      id: z.uuid(),
      guid: z.guid(),
      day: z.iso.date(),
      at: z.iso.datetime(),
      at_offset: z.iso.datetime({ offset: true }).optional(),
      at_local: z.iso.datetime({ local: true }).optional(),
      time: z.iso.time().optional(),
      ip: z.ipv4().optional(),
    }),
    valid: fc.record({
      email: near(validEmail, emailish),
      id: near(fc.uuid(), uuidish),
      guid: near(fc.uuid(), uuidish),
      day: near(validDay, dateish),
      at: near(validDatetime, datetimeish),
      at_offset: opt(near(validDatetime.map((d) => d.replace('Z', '+05:30')), datetimeish)),
      at_local: opt(near(validDatetime.map((d) => d.replace('Z', '')), datetimeish)),
      time: opt(near(validTime, timeish)),
      ip: opt(near(fc.ipV4(), ipv4ish)),
    }) as fc.Arbitrary<Json>,
  },
  {
    name: 'strict objects, records, tuples and string checks',
    schema: z.strictObject({
      code: z.string().length(4).regex(/^[A-Z0-9]+$/),
      tags: z.record(z.string().regex(/^[a-z]+$/), z.number().int()).optional(),
      pair: z.tuple([z.string(), z.number()]).optional(),
      slug: z.string().startsWith('x-').lowercase().optional(),
      label: z.string().min(2).max(5).optional(),
      items: z.array(z.string()).min(1).max(3),
    }),
    valid: fc.record({
      code: near(fc.stringMatching(/^[A-Z0-9]{4}$/), fc.stringMatching(/^[A-Za-z0-9]{3,5}$/)),
      tags: opt(fc.dictionary(near(fc.stringMatching(/^[a-z]{1,4}$/), fc.stringMatching(/^[a-zA-Z]{0,4}$/)), near(fc.integer(), numbers), { maxKeys: 3 })),
      pair: opt(near(fc.tuple(text, numbers), fc.oneof(fc.tuple(text, numbers, text), fc.tuple(text)))),
      slug: opt(near(fc.stringMatching(/^x-[a-z]{0,4}$/), fc.stringMatching(/^[xX]-[a-zA-Z]{0,4}$/))),
      label: opt(near(fc.string({ unit: bmpChar, minLength: 2, maxLength: 5 }), text)),
      items: near(fc.array(text, { minLength: 1, maxLength: 3 }), fc.array(text, { maxLength: 5 })),
    }) as fc.Arbitrary<Json>,
  },
];

describe('Zod (agent) and Ajv (server) agree on every input', () => {
  for (const testCase of cases) {
    it(testCase.name, () => {
      const contract = compile(testCase.schema);
      let accepted = 0;
      let total = 0;
      fc.assert(
        fc.property(inputsFor(testCase.valid), (value) => {
          const zodOk = testCase.schema.safeParse(value).success;
          const serverIssues = contract.checkInput(value);
          total += 1;
          if (zodOk) accepted += 1;
          if (zodOk !== (serverIssues.length === 0)) {
            throw new Error(`disagreement: zod ${zodOk ? 'accepts' : 'refuses'}, server ${serverIssues.length === 0 ? 'accepts' : `refuses (${serverIssues.map((i) => `${i.code} ${i.message}`).join('; ')})`}`);
          }
        }),
        { numRuns: 700 },
      );
      // Both verdicts must come up often, or agreement would be cheap.
      // Observed: 0.24 to 0.58 of the inputs are accepted, depending on the case.
      expect(accepted / total).toBeGreaterThan(0.15);
      expect(accepted / total).toBeLessThan(0.85);
    });
  }
});

describe('edge cases found while writing the property test', () => {
  const formats = compile(cases[6]!.schema);
  const base = { email: 'ada@example.com', id: '123e4567-e89b-12d3-a456-426614174000', guid: '123e4567-e89b-12d3-a456-426614174000', day: '2024-02-29', at: '2024-02-29T12:00:00Z' };
  const verdicts = (value: Record<string, unknown>) => ({ zod: cases[6]!.schema.safeParse(value).success, server: formats.checkInput(value).length === 0 });

  it('an email domain label ending in "-": Zod accepts it, so the contract leaves ajv-formats\' stricter email format out', () => {
    expect(verdicts({ ...base, email: 'a@b-.com' })).toEqual({ zod: true, server: true });
    const withFormat = createContractAjv().compile({ type: 'string', format: 'email' });
    expect(withFormat('a@b-.com')).toBe(false);
  });

  it('leap days and leap seconds', () => {
    expect(verdicts({ ...base, day: '2000-02-29' })).toEqual({ zod: true, server: true });
    expect(verdicts({ ...base, day: '1900-02-29' })).toEqual({ zod: false, server: false });
    expect(verdicts({ ...base, at: '2016-12-31T23:59:60Z' })).toEqual({ zod: false, server: false });
  });

  it('string lengths count code points on both sides (an emoji is one character)', () => {
    const schema = z.object({ s: z.string().min(2).max(3) });
    const contract = compile(schema);
    for (const s of ['😀', '😀😀', '😀😀😀', '😀😀😀😀']) {
      expect(schema.safeParse({ s }).success).toBe(contract.checkInput({ s }).length === 0);
    }
  });

  it('integers beyond 2^53 are refused by both', () => {
    const schema = z.object({ n: z.number().int() });
    const contract = compile(schema);
    expect(schema.safeParse({ n: 2 ** 53 }).success).toBe(false);
    expect(contract.checkInput({ n: 2 ** 53 }).map((i) => i.code)).toEqual(['AXAG_OUT_OF_RANGE']);
  });

  it('KNOWN SERVER GAP: a JSON number too large for a double (1e400) parses to Infinity, which Ajv accepts and Zod refuses', () => {
    // The contract cannot fix this: 1e400 is a valid JSON number. The server's JSON reader
    // would have to refuse non-finite numbers; reported to the lead. Agents using this SDK
    // never send it (JSON.stringify writes Infinity as null).
    const schema = z.object({ n: z.number() });
    const value = JSON.parse('{"n": 1e400}') as unknown;
    expect(schema.safeParse(value).success).toBe(false);
    expect(compile(schema).checkInput(value)).toEqual([]);
  });

  it('refuses constructs the two engines read differently, with the reason', () => {
    const refused: [string, z.ZodObject][] = [
      ['z.date()', z.object({ when: z.date() })],
      ['multipleOf', z.object({ n: z.number().multipleOf(0.1) })],
      ['multipleOf', z.object({ n: z.number().int().multipleOf(5) })],
      ['"."', z.object({ s: z.string().regex(/^a.c$/) })],
      ['\\s', z.object({ s: z.string().regex(/^\s+$/) })],
      ['negated class', z.object({ s: z.string().regex(/^[^a]{2}$/) })],
      ['flags', z.object({ s: z.string().regex(/^abc$/i) })],
      ['lookaround', z.object({ s: z.string().regex(/^(?!x)[a-z]+$/u) })],
      ['u flag', z.object({ s: z.string().regex(/^a\-b$/) })],
      ['"url"', z.object({ u: z.url() })],
      ['refinements', z.object({ s: z.string().refine((s) => s.length > 1) })],
      ['overwrites', z.object({ s: z.string().trim().min(1) })],
      ['z.coerce', z.object({ n: z.coerce.number() })],
      ['transforms', z.object({ s: z.string().transform((s) => s.length) })],
      ['pipes', z.object({ b: z.stringbool() })],
      ['.catch()', z.object({ s: z.string().catch('x') })],
      ['does not satisfy its own schema', z.object({ n: z.number().min(5).default(1) })],
    ];
    for (const [reason, input] of refused) {
      const attempt = () => defineTool({ name: 'refused_tool', description: 'x', input, output: z.object({}), execute: () => ({}) });
      expect(attempt, reason).toThrow(UnsupportedSchemaError);
      expect(attempt, reason).toThrow(reason);
    }
    // The negated class is fine once the regex has the u flag.
    expect(() => compile(z.object({ s: z.string().regex(/^[^a]{2}$/u) }))).not.toThrow();
  });
});
