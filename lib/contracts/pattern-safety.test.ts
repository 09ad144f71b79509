import fc from 'fast-check';
import { isSafePattern } from 'redos-detector';
import { describe, expect, it } from 'vitest';
import { compilePattern } from './json-schema-engine';
import { checkPatternSafety, MAX_UNANCHORED_LENGTH } from './pattern-safety';
import { parsePattern, toNativeSource } from './pattern-syntax';

const engineOf = (pattern: string) => compilePattern(pattern).engine;
const verdict = (pattern: string) => {
  const tree = parsePattern(pattern);
  if (tree === null) throw new Error(`not parsed: ${pattern}`);
  return checkPatternSafety(tree);
};

describe('patterns that can backtrack badly stay on RE2', () => {
  it.each([
    ['^(a+)+$', 'a'.repeat(30_000) + '!', false],
    ['(a|a)*b', 'a'.repeat(30_000), false],
    ['(a|aa)+$', 'a'.repeat(30_000) + '!', false],
    // Matches: the group can repeat zero times right before the end.
    ['(\\w+\\s?)*$', 'a'.repeat(30_000) + '!', true],
    ['^(\\w+\\d?)*$', 'a1'.repeat(15_000) + '!', false],
    ['^(a*)*$', 'a'.repeat(30_000) + '!', false],
    ['^(a?){20}a{20}$', 'a'.repeat(30_000), false],
    ['^(a|b?|c?)+$', 'a'.repeat(30_000) + '!', false],
    ['^(?:a{1,30}){1,30}$', 'a'.repeat(30_000), false],
    ['^(?:[a-z]+-?)*$', 'a'.repeat(30_000) + '!', false],
    ['^[a-z0-9._%+-]+@[a-z0-9.-]+\\.[a-z]{2,}$', `a@${'a.'.repeat(15_000)}!`, false],
    ['^\\d+\\d+$', '1'.repeat(30_000) + '!', false],
    ['^.*x.*y$', 'x'.repeat(30_000), false],
    ['a*b', 'a'.repeat(30_000), false],
    ['[a-z]+$', 'a'.repeat(30_000) + '!', false],
    ['\\d{3}.{0,100}x', '1'.repeat(30_000), false],
  ] as const)('%s', (pattern, adversarial, matches) => {
    const matcher = compilePattern(pattern);
    expect(matcher.engine).toBe('re2');
    // RE2 answers a 30,000-character adversarial input (linear time by construction).
    expect(matcher.test(adversarial)).toBe(matches);
  });

  it('says why', () => {
    expect(verdict('^(a+)+$')).toEqual({ safe: false, reason: 'a position can reach the same position along two routes' });
    expect(verdict('(a|a)*b')).toEqual({ safe: false, reason: 'the start has two next positions that accept the same character' });
    expect(verdict('^(a*)*$')).toEqual({ safe: false, reason: 'a quantifier repeats something that can match the empty string' });
    expect(verdict('^(a?|b?)c$')).toEqual({ safe: false, reason: 'two alternatives can both match the empty string' });
    expect(verdict('[a-z]+$')).toEqual({
      safe: false,
      reason: `not anchored with ^ and can match more than ${MAX_UNANCHORED_LENGTH} characters`,
    });
    expect(verdict('a^b')).toEqual({ safe: false, reason: '`^` is only accepted at the start of the pattern' });
    expect(verdict('^(a$|b)')).toEqual({ safe: false, reason: '`$` is only accepted at the end of the pattern' });
  });
});

describe('patterns proven safe run natively', () => {
  it.each([
    '^ord_[a-z0-9]{6,24}$',
    '^[A-Z]{3}-\\d{4}$',
    '^\\d{4}-\\d{2}-\\d{2}$',
    '^\\d+\\.\\d+$',
    '^[a-z]+(?:-[a-z]+)*$',
    '^(?:ab|cd)*$',
    '^[^@]+@[^@]+$',
    '^\\w+$',
    '^(?:a|b)*c',
    '^a$|^b$',
    '\\d{3}',
    '\\.pdf$',
    '^$',
    '',
  ])('%s', (pattern) => {
    expect(engineOf(pattern)).toBe('native');
  });

  it('keeps patterns it cannot read on RE2 however simple', () => {
    expect(engineOf('^\\s$')).toBe('re2');
    expect(engineOf('^\\bx$')).toBe('re2');
  });
});

// An independent check of the proof: redos-detector enumerates the ways a prefix can be matched
// in ECMAScript semantics. Every native source we would run must have score 1 when anchored (one
// way for every prefix). Unanchored, it models the search as a leading `[^]*`, which overlaps
// the first atom, so the score is above 1 but must be finite: bounded work per start position.
describe('redos-detector agrees with every pattern we run natively', () => {
  const atom = fc.constantFrom('a', 'b', 'c', '[ab]', '[^a]', '\\d', '\\w', '.', '[a-c]', '😀', 'é');
  const quantifier = fc.constantFrom('', '', '*', '+', '?', '{2}', '{1,3}', '{2,}', '*?');
  const term = fc.tuple(atom, quantifier).map(([a, q]) => a + q);
  const sequence = fc.array(term, { minLength: 1, maxLength: 4 }).map((terms) => terms.join(''));
  const group = fc
    .tuple(fc.array(sequence, { minLength: 1, maxLength: 3 }), quantifier)
    .map(([alternatives, q]) => `(?:${alternatives.join('|')})${q}`);
  const pattern = fc
    .tuple(fc.constantFrom('', '^'), fc.array(fc.oneof(sequence, group), { minLength: 1, maxLength: 3 }), fc.constantFrom('', '$'))
    .map(([start, parts, end]) => start + parts.join('') + end);

  it('on random patterns (ambiguous ones included)', () => {
    let native = 0;
    fc.assert(
      fc.property(pattern, (source) => {
        const tree = parsePattern(source);
        if (tree === null || !checkPatternSafety(tree).safe) return;
        const anchored = source.startsWith('^');
        const result = isSafePattern(toNativeSource(tree), {
          unicode: true,
          maxScore: anchored ? 1 : Number.MAX_SAFE_INTEGER,
          maxSteps: 50_000,
          timeout: 2_000,
        });
        // redos-detector gave up (its step or time budget), which is no verdict either way:
        // `(?:😀{1,3}é{1,3}){1,3}(?:a)` hit 50,000 steps after 12 s, and with 200,000 it found
        // the pattern safe after 16 s. Counting that as a disagreement failed CI at random seeds.
        if (result.error === 'hitMaxSteps' || result.error === 'timedOut') return;
        native += 1;
        expect([source, result.safe, result.error, result.score.infinite]).toEqual([source, true, null, false]);
      }),
      { numRuns: 3000 },
    );
    // The generator must exercise the native side, not only the refusals.
    expect(native).toBeGreaterThan(200);
  }, 30_000);
});
