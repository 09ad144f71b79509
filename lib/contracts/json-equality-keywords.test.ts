import Ajv2020, { type ValidateFunction } from 'ajv/dist/2020.js';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { enumIncludes, findDuplicateItems } from './json-equality-keywords';
import { compileContractSchema } from './json-schema-engine';

// Keys from a small alphabet: Ajv's own comparison (fast-deep-equal) misreads keys such as
// `valueOf` and `constructor`, which the cases below show apart.
const key = fc.constantFrom('a', 'b', 'c', 'd');
const scalar = fc.oneof(fc.integer({ min: -3, max: 3 }), fc.constantFrom('a', 'b', '1', '', true, false, null, 0.5, -0));
const value = fc.letrec((tie) => ({
  json: fc.oneof(
    { depthSize: 'small' },
    scalar,
    fc.array(tie('json'), { maxLength: 3 }),
    fc.dictionary(key, tie('json'), { maxKeys: 3, noNullPrototype: true }),
  ),
})).json;

/** Ajv as it comes, for reference. */
const reference = () => new Ajv2020({ allErrors: true, strict: false, verbose: true });
const outcome = (validate: ValidateFunction, data: unknown) => {
  const valid = validate(data);
  return {
    valid,
    errors: (validate.errors ?? []).map(({ keyword, instancePath, params, message }) => ({ keyword, instancePath, params, message })),
  };
};

/** The same value with its object keys in another order. */
function reorder(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(reorder);
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(
    Object.entries(value)
      .reverse()
      .map(([k, v]) => [k, reorder(v)]),
  );
}

describe('uniqueItems and enum compare by hashing', () => {
  it('decide as Ajv does, with the same errors and the same pair of items', () => {
    const schema = { type: 'object', properties: { list: { type: 'array', uniqueItems: true } } };
    const [ours, theirs] = [compileContractSchema(schema), reference().compile(schema)];
    fc.assert(
      fc.property(fc.array(value, { maxLength: 8 }), fc.boolean(), (items, shuffle) => {
        const data = { list: shuffle ? items.map((item, i) => (i % 2 ? reorder(item) : item)) : items };
        expect(outcome(ours, data)).toEqual(outcome(theirs, data));
      }),
      { numRuns: 500 },
    );
    fc.assert(
      fc.property(fc.array(value, { minLength: 16, maxLength: 24 }), value, fc.boolean(), (allowed, candidate, pick) => {
        const data = { v: pick ? reorder(allowed[3]) : candidate };
        const schema = { type: 'object', properties: { v: { enum: allowed } } };
        expect(outcome(compileContractSchema(schema), data)).toEqual(outcome(reference().compile(schema), data));
      }),
      { numRuns: 50 },
    );
  });

  it('report the last item equal to an earlier one, and the nearest earlier item it equals', () => {
    expect(findDuplicateItems([1, { a: 1, b: 2 }, 3, { b: 2, a: 1 }, 1, 4])).toEqual([4, 0]);
    expect(findDuplicateItems([[1, 2], [2, 1], 'x'])).toBeNull();
    expect(findDuplicateItems(['1', 1, true, 'true', null, 'null'])).toBeNull();
  });

  it('compare objects whose keys are named like Object.prototype methods as JSON', () => {
    // fast-deep-equal calls `valueOf` when an object has its own: Ajv threw "a.valueOf is not a
    // function", and two equal objects with a `constructor` key were not equal.
    const unique = compileContractSchema({ type: 'array', uniqueItems: true });
    expect(unique([{ valueOf: 1 }, { valueOf: 1 }])).toBe(false);
    expect(unique.errors?.[0]?.params).toEqual({ i: 1, j: 0 });
    expect(unique([{ constructor: { a: 1 } }, { constructor: { a: 1 } }])).toBe(false);
    const allowed = [{ constructor: { a: 1 } }, ...Array.from({ length: 20 }, (_, i) => i)];
    expect(compileContractSchema({ enum: allowed })({ constructor: { a: 1 } })).toBe(true);
    expect(enumIncludes(allowed, { constructor: { a: 2 } })).toBe(false);
  });
});
