import fc from 'fast-check';
import { RE2JS } from 're2js';
import { describe, expect, it } from 'vitest';
import { toRe2Syntax } from './json-schema-engine';
import { complementSet, normalizeSet, parsePattern, setsIntersect, toNativeSource } from './pattern-syntax';

/** What RE2 answers today for a contract pattern, and what the printed native source answers. */
const re2 = (pattern: string, input: string) => RE2JS.compile(toRe2Syntax(pattern)).test(input);
const native = (pattern: string, input: string) => {
  const tree = parsePattern(pattern);
  if (tree === null) throw new Error(`not parsed: ${pattern}`);
  return new RegExp(toNativeSource(tree), 'u').test(input);
};

// Inputs that tell the engines apart where they could differ: astral characters (one code point,
// two UTF-16 units), lone surrogates, the line terminators ECMAScript's `.` refuses, non-ASCII
// digits and letters (not `\d` or `\w` in either engine), Unicode spaces.
const TRICKY = [
  '😀',
  '😁',
  '\u{10ffff}',
  '\ud83d',
  '\ude00',
  '\n',
  '\r',
  '\u2028',
  '\u2029',
  '\u0663',
  'é',
  'ß',
  '\u00a0',
  '\t',
  '\v',
  ' ',
];
const ALPHABET = ['a', 'b', 'Z', '_', '0', '9', '-', '.', '/', ...TRICKY];

describe('native source means what RE2 means', () => {
  const corpus: [string, string[]][] = [
    ['^.$', ['a', '😀', '\n', '\r', '\u2028', '\u2029', '\ud83d', '\ude00', '']],
    ['^..$', ['😀', '😀😀', 'ab', '\ud83d\ude00', '\ude00\ud83d']],
    ['^\\d+$', ['123', '\u0663', '１２', '12a', '']],
    ['^\\D$', ['a', '1', '😀', '\n', '\ud83d']],
    ['^\\w+$', ['abc_09', 'é', 'ß', 'a-b', '😀']],
    ['^\\W$', ['é', '😀', '_', '\n']],
    ['^[^a]$', ['b', 'a', '\n', '😀', '\ud83d', '']],
    ['^[😀-😂]+$', ['😀😁😂', '😃', '\ud83d']],
    ['^😀{2}$', ['😀😀', '😀', '\ud83d\ude00\ud83d\ude00']],
    ['^[\\u00e9\\u{1F600}]$', ['é', '😀', 'e']],
    ['^\\u00e9\\u{1F600}$', ['é😀', 'é']],
    ['^\\x41\\t\\n\\r\\f\\v$', ['A\t\n\r\f\v', 'A']],
    ['^[-a]$', ['-', 'a', 'b']],
    ['^[a-]$', ['-', 'a']],
    ['^[^-a]$', ['-', 'b']],
    ['^[a\\]\\-\\\\\\^]$', [']', '-', '\\', '^', 'a', 'b']],
    ['^\\/\\.\\*\\+\\?\\(\\)\\[\\]\\{\\}\\|\\$\\^$', ['/.*+?()[]{}|$^']],
    ['^a/b$', ['a/b']],
    ['a$', ['a', 'a\n', 'ba']],
    ['^a', ['ab', 'ba', '\na']],
    ['^$', ['', '\n']],
    ['', ['', 'x']],
    ['^(?:ab|cd)*$', ['', 'abcd', 'abc', 'cdab']],
    ['^(a|b)?c{2,3}$', ['cc', 'acc', 'bccc', 'cccc', 'c']],
    ['^x{2,}?$', ['x', 'xx', 'xxxxx']],
    ['\\d{3}', ['ab123', '12', '\u0663\u0663\u0663']],
    ['^ord_[a-z0-9]{6,24}$', ['ord_123456', 'ord_12345', 'ord_ABCDEF', `ord_${'a'.repeat(25)}`]],
    ['^[\\d_]+$|^-$', ['1_2', '-', '']],
  ];
  for (const [pattern, inputs] of corpus) {
    it(`${pattern}`, () => {
      for (const input of [...inputs, ...TRICKY]) {
        expect([input, native(pattern, input)]).toEqual([input, re2(pattern, input)]);
      }
    });
  }

  // Random patterns from a grammar wider than the proven-safe subset (safety is not the question
  // here, so inputs stay short).
  const atom = fc.oneof(
    fc.constantFrom('a', 'b', '0', '-', '/', '.', '\\d', '\\D', '\\w', '\\W', '\\.', '😀', 'é', '\\u00e9', '\\u{1F600}', '\\x2D'),
    fc
      .tuple(
        fc.boolean(),
        fc.array(
          fc.constantFrom('a', 'b-z', '0-9', '\\d', '\\w', '\\W', '😀-😂', '.', '^', '$', '\\n', '\\]', '\\-', '\\u{10000}-\\u{10FFFF}'),
          {
            minLength: 1,
            maxLength: 3,
          },
        ),
      )
      .map(([negated, items]) => `[${negated ? '^' : ''}${items.join('')}]`),
  );
  const quantified = fc.tuple(atom, fc.constantFrom('', '', '*', '+', '?', '{2}', '{1,3}', '{2,}', '*?', '+?')).map(([a, q]) => a + q);
  const sequence = fc.array(quantified, { minLength: 0, maxLength: 4 }).map((parts) => parts.join(''));
  const group = fc.array(sequence, { minLength: 1, maxLength: 3 }).map((alts) => `(?:${alts.join('|')})${alts.length > 1 ? '?' : ''}`);
  const pattern = fc
    .tuple(fc.constantFrom('', '^'), fc.array(fc.oneof(sequence, group), { minLength: 1, maxLength: 3 }), fc.constantFrom('', '$'))
    .map(([start, body, end]) => start + body.join('') + end);
  const input = fc.array(fc.constantFrom(...ALPHABET), { maxLength: 8 }).map((units) => units.join(''));

  it('agrees with RE2 on random patterns and inputs (astral, surrogates, line terminators)', () => {
    fc.assert(
      fc.property(pattern, fc.array(input, { minLength: 1, maxLength: 8 }), (source, inputs) => {
        fc.pre(parsePattern(source) !== null);
        for (const text of inputs) expect([source, text, native(source, text)]).toEqual([source, text, re2(source, text)]);
      }),
      { numRuns: 1500 },
    );
  });
});

describe('parsePattern leaves to RE2 what it cannot read with certainty', () => {
  it.each([
    ['\\s', 'Unicode spaces in ECMAScript, ASCII in RE2'],
    ['\\S', 'the same'],
    ['\\b', 'word boundary'],
    ['\\p{L}', 'Unicode property'],
    ['(a)\\1', 'backreference'],
    ['(?=a)', 'lookahead'],
    ['(?<name>a)', 'named group'],
    ['(?i)a', 'inline flag'],
    ['\\x{41}', 'RE2-only escape'],
    ['\\A', 'RE2-only anchor'],
    ['[[:alpha:]]', 'POSIX class'],
    ['[]a]', 'RE2 reads ] as a literal'],
    ['[^]a]', 'the same'],
    ['[a-c-e]', 'dash after a range'],
    ['[\\d-z]', 'class escape as a range end'],
    ['a{,3}', 'a literal { in RE2'],
    ['a{2', 'the same'],
    ['}', 'the same'],
    ['\\ud83d', 'escaped surrogate'],
    ['\ud83d', 'lone surrogate in the pattern'],
    ['\\-', 'escape ECMAScript refuses outside a class'],
    ['\\0', 'NUL escape'],
    ['^*', 'quantified anchor'],
    ['a**', 'double quantifier'],
    ['(', 'unbalanced'],
    ['a)', 'unbalanced'],
    ['a'.repeat(1001), 'longer than 1,000 code points'],
  ])('%s (%s)', (source) => {
    expect(parsePattern(source)).toBeNull();
  });
});

describe('code-point sets', () => {
  it('normalizes, complements and intersects', () => {
    expect(normalizeSet([5, 9, 0, 2, 3, 4])).toEqual([0, 9]);
    expect(complementSet([0, 9, 11, 0x10ffff])).toEqual([10, 10]);
    expect(complementSet([])).toEqual([0, 0x10ffff]);
    expect(setsIntersect([0, 5], [5, 9])).toBe(true);
    expect(setsIntersect([0, 4], [5, 9])).toBe(false);
    expect(setsIntersect([-1, -1], [0, 0x10ffff])).toBe(false);
  });
});
