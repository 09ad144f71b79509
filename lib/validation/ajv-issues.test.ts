import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MAX_ISSUES_PER_CHECK } from './ajv-issues';
import { compileOrThrow, kitchenSinkContract } from './test-contracts';

const withInput = (input: Record<string, unknown>) =>
  compileOrThrow({ ...kitchenSinkContract, input, scope: undefined, preconditions: undefined, sensitive: undefined });

describe('ajvIssues', () => {
  it('keeps only the summary for anyOf/oneOf branches', () => {
    const contract = withInput({
      type: 'object',
      properties: { id: { anyOf: [{ type: 'string' }, { type: 'integer' }] }, v: { oneOf: [{ type: 'string' }, { type: 'number' }] } },
    });
    const issues = contract.checkInput({ id: true, v: false });
    expect(issues).toMatchObject([
      { code: 'AXAG_CONSTRAINT_VIOLATION', path: '$.id', details: { constraint: { keyword: 'anyOf' } } },
      { code: 'AXAG_CONSTRAINT_VIOLATION', path: '$.v', details: { constraint: { keyword: 'oneOf' } } },
    ]);
    expect(issues[0]?.message).toContain('must be string');
  });

  it('reports a required parameter sent as null as AXAG_MISSING_PARAM, however its schema is written', () => {
    // AXAG seed, Pre-Execution Validation: "All required parameters are present and non-null".
    const contract = withInput({
      type: 'object',
      required: ['e', 'r', 'u', 'c', 't', 'te', 'items'],
      $defs: {
        code: { type: 'string' },
        item: { type: 'object', required: ['sku'], properties: { sku: { enum: ['s1'] } } },
      },
      properties: {
        e: { enum: ['a', 'b'] },
        r: { $ref: '#/$defs/code' },
        u: { anyOf: [{ type: 'string' }, { type: 'integer' }] },
        c: { const: 'x' },
        t: { type: 'string' },
        te: { type: 'string', enum: ['a'] },
        o: { enum: ['a'] },
        items: { type: 'array', items: { $ref: '#/$defs/item' } },
      },
    });
    const issues = contract.checkInput({ e: null, r: null, u: null, c: null, t: null, te: null, o: null, items: [{ sku: null }] });
    expect(issues.map((i) => `${i.code} ${i.path}`).sort()).toEqual([
      'AXAG_INVALID_ENUM $.o',
      'AXAG_MISSING_PARAM $.c',
      'AXAG_MISSING_PARAM $.e',
      'AXAG_MISSING_PARAM $.items[0].sku',
      'AXAG_MISSING_PARAM $.r',
      'AXAG_MISSING_PARAM $.t',
      'AXAG_MISSING_PARAM $.te',
      'AXAG_MISSING_PARAM $.u',
    ]);
    expect(issues.find((i) => i.path === '$.e')).toMatchObject({
      type: 'parameter_error',
      message: 'e is required and must be present and non-null',
      details: { constraint: { keyword: 'required', refused_by: 'enum' } },
    });
  });

  it('reports the then-branch error rather than the if summary', () => {
    const contract = withInput({
      type: 'object',
      if: { properties: { kind: { const: 'card' } }, required: ['kind'] },
      then: { required: ['card_number'] },
    });
    expect(contract.checkInput({ kind: 'card' })).toMatchObject([{ code: 'AXAG_MISSING_PARAM', path: '$.card_number' }]);
    expect(contract.checkInput({ kind: 'cash' })).toEqual([]);
  });

  it('truncates echoed values and enum lists', () => {
    const allowed = Array.from({ length: 30 }, (_, i) => `v${i}`);
    const contract = withInput({ type: 'object', properties: { s: { type: 'integer' }, e: { enum: allowed } } });
    const issues = contract.checkInput({ s: 'x'.repeat(10_000), e: 'nope' });
    const typeIssue = issues.find((i) => i.code === 'AXAG_INVALID_TYPE');
    const enumIssue = issues.find((i) => i.code === 'AXAG_INVALID_ENUM');
    expect(typeIssue?.message.length).toBeLessThan(140);
    expect(enumIssue).toMatchObject({ code: 'AXAG_INVALID_ENUM', details: { constraint: { keyword: 'enum', truncated: true } } });
    expect((enumIssue?.details.constraint?.allowed as unknown[]).length).toBe(20);
  });

  it('caps the number of issues per check', () => {
    const contract = withInput({ type: 'object', additionalProperties: false });
    const args = Object.fromEntries(Array.from({ length: 200 }, (_, i) => [`k${i}`, i]));
    expect(contract.checkInput(args)).toHaveLength(MAX_ISSUES_PER_CHECK);
  });

  it('quotes odd keys and tells array indexes from numeric keys', () => {
    const contract = withInput({
      type: 'object',
      properties: { 'a b': { type: 'string' }, map: { type: 'object', additionalProperties: { type: 'string' } } },
    });
    expect(contract.checkInput({ 'a b': 1, map: { '0': 1 } }).map((i) => i.path)).toEqual(["$['a b']", "$.map['0']"]);
  });

  it('maps unevaluatedProperties, uniqueItems, const and not', () => {
    const contract = withInput({
      type: 'object',
      properties: { tags: { type: 'array', uniqueItems: true, maxItems: 2 }, mode: { const: 'fast' }, x: { not: { type: 'null' } } },
      unevaluatedProperties: false,
    });
    const issues = contract.checkInput({ tags: ['a', 'a', 'b'], mode: 'slow', x: null, y: 1 });
    expect(issues.map((i) => [i.code, i.path, i.details.constraint?.keyword]).sort()).toEqual([
      ['AXAG_CONSTRAINT_VIOLATION', '$.mode', 'const'],
      ['AXAG_CONSTRAINT_VIOLATION', '$.tags', 'uniqueItems'],
      ['AXAG_CONSTRAINT_VIOLATION', '$.x', 'not'],
      ['AXAG_INVALID_LENGTH', '$.tags', 'maxItems'],
      ['AXAG_UNKNOWN_PARAM', '$.y', 'unevaluatedProperties'],
    ]);
  });
});

describe('ajvIssues properties', () => {
  it('(a) arguments the input schema accepts are still accepted after a JSON round trip', () => {
    const contract = withInput({
      type: 'object',
      properties: {
        n: { type: 'number' },
        i: { type: 'integer' },
        s: { type: 'string', maxLength: 20 },
        list: { type: 'array', items: { type: ['string', 'number', 'boolean', 'null'] } },
        nested: { type: 'object', additionalProperties: { type: 'number' } },
      },
      additionalProperties: true,
    });
    const args = fc.record(
      {
        n: fc.double({ noNaN: true, noDefaultInfinity: true }),
        i: fc.integer(),
        s: fc.string({ maxLength: 20 }),
        list: fc.array(fc.oneof(fc.string(), fc.double({ noNaN: true, noDefaultInfinity: true }), fc.boolean(), fc.constant(null))),
        nested: fc.dictionary(fc.string(), fc.integer()),
        extra: fc.jsonValue(),
      },
      { requiredKeys: [] },
    );
    fc.assert(
      fc.property(args, (value) => {
        fc.pre(contract.checkInput(value).length === 0);
        expect(contract.checkInput(JSON.parse(JSON.stringify(value)))).toEqual([]);
      }),
      { numRuns: 300 },
    );
  });

  it('(b) values inside [min, max] never give AXAG_OUT_OF_RANGE, values outside always do', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: -1000, max: 1000 }),
        fc.integer({ min: 0, max: 1000 }),
        fc.double({ min: -5000, max: 5000, noNaN: true }),
        (min, width, value) => {
          const max = min + width;
          const contract = withInput({ type: 'object', properties: { v: { type: 'number', minimum: min, maximum: max } } });
          const codes = contract.checkInput({ v: value }).map((i) => i.code);
          if (value >= min && value <= max) expect(codes).toEqual([]);
          else expect(codes).toEqual(['AXAG_OUT_OF_RANGE']);
        },
      ),
      { numRuns: 60 },
    );
  });
});
