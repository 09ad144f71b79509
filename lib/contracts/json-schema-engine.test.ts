import Ajv2020 from 'ajv/dist/2020.js';
import ucs2length from 'ajv/dist/runtime/ucs2length';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  checkPattern,
  compilePattern,
  createContractRegExpEngine,
  countCodePoints,
  compileContractSchema,
  toRe2Syntax,
} from './json-schema-engine';

// A small grammar of safe patterns both engines understand identically.
const atom = fc.constantFrom('a', 'b', '.', '[ab]', '[^a]', '\\d', 'c');
const quantified = fc.tuple(atom, fc.constantFrom('', '*', '+', '?', '{1,2}')).map(([a, q]) => a + q);
const sequence = fc.array(quantified, { minLength: 1, maxLength: 4 }).map((parts) => parts.join(''));
const pattern = fc
  .tuple(
    fc.constantFrom('', '^'),
    fc.array(sequence, { minLength: 1, maxLength: 3 }).map((alts) => (alts.length > 1 ? `(${alts.join('|')})` : alts[0]!)),
    fc.constantFrom('', '$'),
  )
  .map(([start, body, end]) => start + body + end);
const subject = fc.string({ unit: fc.constantFrom('a', 'b', 'c', '1', 'x'), maxLength: 12 });

describe('RE2 engine for Ajv', () => {
  it('agrees with JS RegExp on simple safe patterns', () => {
    fc.assert(
      fc.property(pattern, subject, (source, input) => {
        expect(createContractRegExpEngine()(source, 'u').test(input)).toBe(new RegExp(source, 'u').test(input));
      }),
      { numRuns: 500 },
    );
  });

  it('translates ECMAScript code-point escapes', () => {
    expect(toRe2Syntax('^\\u00e9\\u{1F600}$')).toBe('^\\x{00e9}\\x{1F600}$');
    expect(toRe2Syntax('\\\\u0041')).toBe('\\\\u0041');
    expect(createContractRegExpEngine()('^\\u00e9$', 'u').test('é')).toBe(true);
  });

  it('refuses backreferences and lookaround, accepts nested quantifiers', () => {
    expect(checkPattern('(a)\\1').ok).toBe(false);
    expect(checkPattern('(?=a)').ok).toBe(false);
    expect(checkPattern('(a+)+$').ok).toBe(true);
  });

  it('matches hostile input in linear time', () => {
    const engine = createContractRegExpEngine()('^(a|aa)+$', 'u');
    expect(engine.test(`${'a'.repeat(50_000)}b`)).toBe(false);
    expect(engine.test('a'.repeat(50_000))).toBe(true);
  });

  it('gives each pattern its own cache key, and compiles a repeated one once', () => {
    const engine = createContractRegExpEngine();
    const a = engine('^a$', 'u');
    const b = engine('^b$', 'u');
    expect(String(a)).not.toBe(String(b));
    expect([a.test('a'), a.test('b'), b.test('a'), b.test('b')]).toEqual([true, false, false, true]);
    expect(engine('^a$', 'u')).toBe(a);
  });
});

describe('patterns in contract schemas', () => {
  it('run natively when proven safe, on RE2 otherwise, with the same answers', () => {
    const validate = compileContractSchema({
      type: 'object',
      properties: { id: { type: 'string', pattern: '^ord_[a-z0-9]{6,24}$' }, tag: { type: 'string', pattern: '^(a|aa)+$' } },
    });
    expect(compilePattern('^ord_[a-z0-9]{6,24}$').engine).toBe('native');
    expect(compilePattern('^(a|aa)+$').engine).toBe('re2');
    expect(validate({ id: 'ord_123456', tag: 'aaa' })).toBe(true);
    expect(validate({ id: 'ord_12345', tag: `${'a'.repeat(30_000)}b` })).toBe(false);
    expect(validate.errors?.map((e) => [e.keyword, e.instancePath])).toEqual([
      ['pattern', '/id'],
      ['pattern', '/tag'],
    ]);
  });

  it('refuses the same patterns with the same messages as RE2 alone', () => {
    expect(() => compilePattern('(a)\\1')).toThrow(/invalid escape sequence/);
    expect(() => compilePattern('a{1001}')).toThrow(/invalid repeat count/);
  });

  it('answers with RE2 when the native match throws (backtracking stack exhausted)', () => {
    const matcher = compilePattern('^(?:a|bc)*$');
    expect(matcher.engine).toBe('native');
    // V8 keeps a backtrack entry per iteration and gives up around 8 million of them.
    const huge = 'a'.repeat(9_000_000);
    expect(() => new RegExp('^(?:a|bc)*$', 'u').test(huge)).toThrow(RangeError);
    expect(matcher.test(huge)).toBe(true);
    expect(matcher.test(`${huge}b`)).toBe(false);
  }, 30_000);
});

describe('minLength and maxLength count code points', () => {
  // Every string of up to 6 units over: a BMP letter, both halves of a surrogate pair, so that
  // pairs, lone high and lone low surrogates all occur at every position.
  const units = ['a', '\ud83d', '\ude00'];
  const strings: string[] = [''];
  for (let length = 1; length <= 6; length++) {
    for (const s of strings.filter((x) => x.length === length - 1)) for (const u of units) strings.push(s + u);
  }

  it('countCodePoints counts as Ajv does', () => {
    for (const s of strings) expect([s, countCodePoints(s)]).toEqual([s, ucs2length(s)]);
    fc.assert(fc.property(fc.string({ unit: 'binary' }), (s) => countCodePoints(s) === ucs2length(s)));
  });

  it('the fast path decides exactly as the full count, at every boundary, with the same errors', () => {
    for (const keyword of ['minLength', 'maxLength'] as const) {
      for (let limit = 0; limit <= 7; limit++) {
        const schema = { type: 'string', [keyword]: limit };
        const fast = compileContractSchema(schema);
        const reference = new Ajv2020({ allErrors: true, verbose: true }).compile(schema);
        for (const s of strings) {
          const codePoints = ucs2length(s);
          const expected = keyword === 'minLength' ? codePoints >= limit : codePoints <= limit;
          expect([keyword, limit, s, fast(s)]).toEqual([keyword, limit, s, expected]);
          expect(reference(s)).toBe(expected);
          expect(fast.errors ?? null).toEqual(reference.errors ?? null);
        }
      }
    }
  });

  it('an emoji is one character', () => {
    const validate = compileContractSchema({ type: 'string', minLength: 2, maxLength: 2 });
    expect(validate('😀😀')).toBe(true);
    expect(validate('😀')).toBe(false);
    expect(validate('😀😀😀')).toBe(false);
    expect(validate('\ud83d\ud83d')).toBe(true);
  });
});
