import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkPattern, re2RegExpEngine, toRe2Syntax } from './json-schema-engine';

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
        expect(re2RegExpEngine(source, 'u').test(input)).toBe(new RegExp(source, 'u').test(input));
      }),
      { numRuns: 500 },
    );
  });

  it('translates ECMAScript code-point escapes', () => {
    expect(toRe2Syntax('^\\u00e9\\u{1F600}$')).toBe('^\\x{00e9}\\x{1F600}$');
    expect(toRe2Syntax('\\\\u0041')).toBe('\\\\u0041');
    expect(re2RegExpEngine('^\\u00e9$', 'u').test('é')).toBe(true);
  });

  it('refuses backreferences and lookaround, accepts nested quantifiers', () => {
    expect(checkPattern('(a)\\1').ok).toBe(false);
    expect(checkPattern('(?=a)').ok).toBe(false);
    expect(checkPattern('(a+)+$').ok).toBe(true);
  });

  it('matches hostile input in linear time', () => {
    const engine = re2RegExpEngine('^(a|aa)+$', 'u');
    expect(engine.test(`${'a'.repeat(50_000)}b`)).toBe(false);
    expect(engine.test('a'.repeat(50_000))).toBe(true);
  });

  it('gives each pattern its own cache key', () => {
    expect(String(re2RegExpEngine('^a$', 'u'))).not.toBe(String(re2RegExpEngine('^b$', 'u')));
  });
});
