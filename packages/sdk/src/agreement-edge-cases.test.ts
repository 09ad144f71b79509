import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { compileContractSchema } from '@/lib/contracts/json-schema-engine';
import { cases, compile } from './testing/agreement-cases.ts';
import { defineTool } from './define-tool.ts';
import { UnsupportedSchemaError } from './supported-zod-subset.ts';

describe('edge cases found while writing the property test', () => {
  const formats = compile(cases[6]!.schema);
  const base = {
    email: 'ada@example.com',
    id: '123e4567-e89b-12d3-a456-426614174000',
    guid: '123e4567-e89b-12d3-a456-426614174000',
    day: '2024-02-29',
    at: '2024-02-29T12:00:00Z',
  };
  const verdicts = (value: Record<string, unknown>) => ({
    zod: cases[6]!.schema.safeParse(value).success,
    server: formats.checkInput(value).length === 0,
  });

  it('an email domain label ending in "-": Zod accepts it, so the contract leaves ajv-formats\' stricter email format out', () => {
    expect(verdicts({ ...base, email: 'a@b-.com' })).toEqual({ zod: true, server: true });
    const withFormat = compileContractSchema({ type: 'string', format: 'email' });
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
