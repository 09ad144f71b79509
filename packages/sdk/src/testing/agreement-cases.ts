// The cases the agreement tests hold Zod and Ajv to: one Zod schema per family of constructs the
// SDK supports, with a generator of values that are valid for it (or nearly).
import fc from 'fast-check';
import { z } from 'zod';
import { compileContract, type CompiledContract } from '@/lib/contracts/compile-contract';
import {
  boundaryNumbers,
  bmpChar,
  dateish,
  datetimeish,
  emailish,
  ipv4ish,
  near,
  numbers,
  opt,
  shortText,
  text,
  timeish,
  uuidish,
  validDatetime,
  validDay,
  validEmail,
  validTime,
  type Json,
} from './agreement-generators.ts';
import { zodToContract } from '../zod-to-contract.ts';

export function compile(input: z.ZodObject): CompiledContract {
  const document = zodToContract({
    id: 'agreement.case',
    version: '1.0.0',
    description: 'Agreement test case.',
    owner: 'tests',
    kind: 'query',
    side_effect_level: 'none',
    idempotent: true,
    input,
  });
  const compiled = compileContract(document);
  if (!compiled.ok) throw new Error(`contract does not compile: ${JSON.stringify(compiled.problems)}`);
  return compiled.contract;
}

export const cases: { name: string; schema: z.ZodObject; valid: fc.Arbitrary<Json> }[] = [
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
    name: "arrays of objects (the seed's filters)",
    schema: z.object({
      filters: z
        .array(z.object({ field: z.string(), operator: z.enum(['eq', 'gt', 'lt', 'contains']), value: z.union([z.string(), z.number()]) }))
        .max(5),
      sort: z.object({ field: z.string(), direction: z.enum(['asc', 'desc']) }).optional(),
    }),
    valid: fc.record({
      filters: fc.array(
        fc.record({
          field: text,
          operator: near(fc.constantFrom('eq', 'gt', 'lt', 'contains'), fc.constantFrom('ne', 'EQ')),
          value: fc.oneof(text, numbers),
        }),
        { maxLength: 5 },
      ),
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
      target: z.union([
        z.object({ kind: z.literal('user'), id: z.uuid() }),
        z.object({ kind: z.literal('team'), slug: z.string().regex(/^[a-z-]+$/) }),
      ]),
      shape: z.discriminatedUnion('type', [
        z.object({ type: z.literal('circle'), r: z.number().positive() }),
        z.object({ type: z.literal('rect'), w: z.number(), h: z.number() }),
      ]),
    }),
    valid: fc.record({
      value: fc.oneof(text, numbers, fc.constant(null), fc.boolean()),
      target: fc.oneof(
        fc.record({ kind: near(fc.constant('user'), fc.constant('team')), id: near(fc.uuid(), uuidish) }),
        fc.record({
          kind: near(fc.constant('team'), fc.constant('user')),
          slug: near(fc.stringMatching(/^[a-z-]{1,6}$/), fc.stringMatching(/^[a-zA-Z-]{0,6}$/)),
        }),
      ),
      shape: fc.oneof(
        fc.record({
          type: near(fc.constant('circle'), fc.constant('rect')),
          r: near(fc.double({ min: 0.001, max: 1e6, noNaN: true }), numbers),
        }),
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
      step: near(
        fc.integer({ min: -200_000, max: 200_000 }).map((n) => n * 5),
        numbers,
      ),
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
      at_offset: opt(
        near(
          validDatetime.map((d) => d.replace('Z', '+05:30')),
          datetimeish,
        ),
      ),
      at_local: opt(
        near(
          validDatetime.map((d) => d.replace('Z', '')),
          datetimeish,
        ),
      ),
      time: opt(near(validTime, timeish)),
      ip: opt(near(fc.ipV4(), ipv4ish)),
    }) as fc.Arbitrary<Json>,
  },
  {
    name: 'strict objects, records, tuples and string checks',
    schema: z.strictObject({
      code: z
        .string()
        .length(4)
        .regex(/^[A-Z0-9]+$/),
      tags: z.record(z.string().regex(/^[a-z]+$/), z.number().int()).optional(),
      pair: z.tuple([z.string(), z.number()]).optional(),
      slug: z.string().startsWith('x-').lowercase().optional(),
      label: z.string().min(2).max(5).optional(),
      items: z.array(z.string()).min(1).max(3),
    }),
    valid: fc.record({
      code: near(fc.stringMatching(/^[A-Z0-9]{4}$/), fc.stringMatching(/^[A-Za-z0-9]{3,5}$/)),
      tags: opt(
        fc.dictionary(near(fc.stringMatching(/^[a-z]{1,4}$/), fc.stringMatching(/^[a-zA-Z]{0,4}$/)), near(fc.integer(), numbers), {
          maxKeys: 3,
        }),
      ),
      pair: opt(near(fc.tuple(text, numbers), fc.oneof(fc.tuple(text, numbers, text), fc.tuple(text)))),
      slug: opt(near(fc.stringMatching(/^x-[a-z]{0,4}$/), fc.stringMatching(/^[xX]-[a-zA-Z]{0,4}$/))),
      label: opt(near(fc.string({ unit: bmpChar, minLength: 2, maxLength: 5 }), text)),
      items: near(fc.array(text, { minLength: 1, maxLength: 3 }), fc.array(text, { maxLength: 5 })),
    }) as fc.Arbitrary<Json>,
  },
];
