import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatJsonPath } from './json-path';
import { exactNumberText, findUnrepresentableNumbers, inspectJsonText, numberProblem } from './json-numbers';

const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);

/** An independent oracle: the token's exact value as a fraction m / 10^d, compared with BigInt. */
function oracle(token: string): 'not_finite' | 'unsafe_integer' | 'underflow' | null {
  const read = Number(token);
  if (!Number.isFinite(read)) return 'not_finite';
  const match = /^(-?)(\d+)(?:\.(\d+))?(?:[eE]([+-]?\d+))?$/.exec(token)!;
  const digits = `${match[2]}${match[3] ?? ''}`;
  const exponent = Number(match[4] ?? 0) - (match[3]?.length ?? 0);
  const m = BigInt(digits);
  if (m === 0n) return null;
  if (read === 0) return 'underflow';
  if (exponent < 0) {
    const divisor = 10n ** BigInt(-exponent);
    if (m % divisor !== 0n) return null;
    return m / divisor > MAX_SAFE ? 'unsafe_integer' : null;
  }
  return m * 10n ** BigInt(exponent) > MAX_SAFE ? 'unsafe_integer' : null;
}

const numberToken = fc
  .tuple(
    fc.boolean(),
    fc.oneof(fc.constant('0'), fc.stringMatching(/^[1-9]\d{0,24}$/)),
    fc.option(fc.stringMatching(/^\d{1,24}$/), { nil: undefined }),
    fc.option(fc.tuple(fc.constantFrom('e', 'E', 'e+', 'e-', 'E-'), fc.integer({ min: 0, max: 420 })), { nil: undefined }),
  )
  .map(
    ([negative, whole, fraction, exponent]) =>
      `${negative ? '-' : ''}${whole}${fraction === undefined ? '' : `.${fraction}`}${exponent ? `${exponent[0]}${exponent[1]}` : ''}`,
  );

describe('numberProblem', () => {
  it('agrees with an exact BigInt oracle on arbitrary JSON number tokens', () => {
    fc.assert(
      fc.property(numberToken, (token) => {
        expect(numberProblem(token)).toBe(oracle(token));
      }),
      { numRuns: 3000 },
    );
  });

  it('names the documented cases and leaves their near twins alone', () => {
    expect(numberProblem('1e309')).toBe('not_finite');
    expect(numberProblem('-1e309')).toBe('not_finite');
    expect(numberProblem('1.7976931348623157e308')).toBe('unsafe_integer');
    expect(numberProblem('9007199254740993')).toBe('unsafe_integer');
    expect(numberProblem('9007199254740992')).toBe('unsafe_integer');
    expect(numberProblem('-9007199254740992')).toBe('unsafe_integer');
    expect(numberProblem('9007199254740991')).toBeNull();
    expect(numberProblem('-9007199254740991')).toBeNull();
    expect(numberProblem('9007199254740993.5')).toBeNull(); // a decimal: JavaScript's reading
    expect(numberProblem('9007199254740993.000')).toBe('unsafe_integer');
    expect(numberProblem('1e16')).toBe('unsafe_integer');
    expect(numberProblem('1e15')).toBeNull();
    expect(numberProblem('1e-400')).toBe('underflow');
    expect(numberProblem('0e-400')).toBeNull();
    expect(numberProblem('5e-324')).toBeNull();
    expect(numberProblem('0.1')).toBeNull();
    expect(numberProblem('1.0000000000000001')).toBeNull();
    expect(numberProblem(`0.${'0'.repeat(400)}1`)).toBe('underflow');
  });
});

describe('exactNumberText', () => {
  it('is what JSON.stringify writes for every double', () => {
    fc.assert(
      fc.property(fc.double({ noNaN: true, noDefaultInfinity: true }), (x) => {
        expect(exactNumberText(JSON.stringify(x))).toBe(JSON.stringify(Object.is(x, -0) ? 0 : x));
      }),
      { numRuns: 3000 },
    );
  });

  it('keeps every digit of the numbers a double cannot hold', () => {
    expect(exactNumberText('9007199254740993')).toBe('9007199254740993');
    expect(exactNumberText('9.007199254740993e15')).toBe('9007199254740993');
    expect(exactNumberText('1e309')).toBe('1e+309');
    expect(exactNumberText('-1E+309')).toBe('-1e+309');
    expect(exactNumberText('123456789012345678901234567890')).toBe('1.2345678901234567890123456789e+29');
    expect(exactNumberText('0.000001e-400')).toBe('1e-406');
    expect(exactNumberText('-0.0')).toBe('0');
  });

  // The exponent written with all its digits, from BigInt arithmetic: what exactNumberText wrote
  // before it printed long exponents from their digits.
  const viaBigInt = (mantissa: string, exponent: bigint): string => {
    const [whole = '', fraction = ''] = mantissa.split('.');
    const all = whole + fraction;
    const lead = all.search(/[1-9]/);
    const digits = all.slice(lead).replace(/0+$/, '');
    const e = BigInt(whole.length - lead) + exponent - 1n;
    return `${digits.length === 1 ? digits : `${digits[0]}.${digits.slice(1)}`}e${e < 0n ? '-' : '+'}${e < 0n ? -e : e}`;
  };

  it('writes exponents of any length exactly, carries and borrows across their digits included', () => {
    const mantissas = ['1', '7', '12.5', '0.0001', '987654321', '0.000000000123', '100000000000000000000'];
    const exponents = fc.oneof(
      fc.bigInt({ min: 10n ** 30n, max: 10n ** 60n }),
      fc.integer({ min: 31, max: 60 }).chain((k) => fc.constantFrom(10n ** BigInt(k), 10n ** BigInt(k) - 1n, 10n ** BigInt(k) + 1n)),
    );
    fc.assert(
      fc.property(fc.constantFrom(...mantissas), exponents, fc.boolean(), (mantissa, magnitude, negative) => {
        const exponent = negative ? -magnitude : magnitude;
        expect(exactNumberText(`${mantissa}e${negative ? '-' : '+'}${magnitude}`)).toBe(viaBigInt(mantissa, exponent));
        expect(exactNumberText(`-${mantissa}E${negative ? '-' : ''}000${magnitude}`)).toBe(`-${viaBigInt(mantissa, exponent)}`);
      }),
      { numRuns: 2000 },
    );
  });

  it('writes an exponent of 200,000 digits exactly, from its digits (a BigInt that size is slow to read and print)', () => {
    const nines = '9'.repeat(200_000);
    expect(numberProblem(`1e${nines}`)).toBe('not_finite');
    expect(numberProblem(`-12.5e-${nines}`)).toBe('underflow');
    const big = exactNumberText(`0.0001e1${'0'.repeat(200_000)}`);
    expect(big.length).toBe(200_003);
    expect(big.startsWith('1e+999999999')).toBe(true);
    expect(big.endsWith('99996')).toBe(true);
    const small = exactNumberText(`-12.5e-${nines}`);
    expect(small.startsWith('-1.25e-999999')).toBe(true);
    expect(small.endsWith('99998')).toBe(true);
  });
});

/** A JSON value whose text marks some numbers as unrepresentable tokens; the expected paths come along. */
type Built = { text: string; expected: string[] };
const leaf = fc.oneof(
  fc.jsonValue({ maxDepth: 0 }).map((value) => ({ value, big: undefined as string | undefined })),
  fc.constantFrom('9007199254740993', '1e309', '-1e999', '1e-400', '18446744073709551616', '2e20').map((big) => ({ value: null, big })),
);
const tree: fc.Arbitrary<unknown> = fc.letrec<{ node: unknown }>((tie) => ({
  node: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    leaf,
    fc.array(tie('node'), { maxLength: 4 }),
    fc.dictionary(fc.string({ maxLength: 6 }), tie('node'), { maxKeys: 4 }),
  ),
})).node;

function build(node: unknown, path: (string | number)[], space: string, out: Built): string {
  if (node && typeof node === 'object' && 'big' in node && 'value' in node && Object.keys(node).length === 2) {
    const { value, big } = node as { value: unknown; big?: string };
    if (big !== undefined) {
      out.expected.push(formatJsonPath(path));
      return big;
    }
    const text = JSON.stringify(value);
    if (typeof value === 'number' && numberProblem(text)) out.expected.push(formatJsonPath(path));
    return text;
  }
  if (Array.isArray(node))
    return `[${space}${node.map((item, i) => build(item, [...path, i], space, out)).join(`${space},${space}`)}${space}]`;
  const entries = Object.entries(node as Record<string, unknown>);
  return `{${space}${entries.map(([key, value]) => `${JSON.stringify(key)}${space}:${space}${build(value, [...path, key], space, out)}`).join(`,${space}`)}${space}}`;
}

describe('findUnrepresentableNumbers', () => {
  it('finds exactly the unrepresentable numbers of any JSON text, with their paths, as JSON.parse reads it', () => {
    fc.assert(
      fc.property(tree, fc.constantFrom('', ' ', '\n  '), (node, space) => {
        const out: Built = { text: '', expected: [] };
        out.text = build(node, [], space, out);
        expect(() => JSON.parse(out.text)).not.toThrow();
        const findings = findUnrepresentableNumbers(out.text);
        expect(findings.map((f) => f.path)).toEqual(out.expected);
        for (const finding of findings) expect(out.text.slice(finding.start, finding.end)).toBe(finding.token);
        // The cheap pass never misses what the exact scan finds.
        if (findings.length > 0) expect(inspectJsonText(out.text, 1000).numbersToCheck).toBe(true);
      }),
      { numRuns: 1500 },
    );
  });

  it('reads keys with escapes and skips digits inside strings', () => {
    const text = '{"a\\"b":[1,"9007199254740993",{"k\\u00e9y":1e309}],"s":"1e999","n":12345678901234567890}';
    expect(findUnrepresentableNumbers(text).map((f) => [f.path, f.token, f.problem])).toEqual([
      [formatJsonPath(['a"b', 2, 'kéy']), '1e309', 'not_finite'],
      ['$.n', '12345678901234567890', 'unsafe_integer'],
    ]);
  });
});

describe('inspectJsonText', () => {
  it('measures depth as before and flags only digit runs of 16+ or exponents outside strings', () => {
    expect(inspectJsonText('{"a":[[1]]}', 3)).toEqual({ tooDeep: false, numbersToCheck: false });
    expect(inspectJsonText('{"a":[[1]]}', 2)).toEqual({ tooDeep: true, numbersToCheck: false });
    expect(inspectJsonText('{"a":"[[[[1234567890123456789 1e5"}', 1).numbersToCheck).toBe(false);
    expect(inspectJsonText('{"a":1234567890123456}', 5).numbersToCheck).toBe(true);
    expect(inspectJsonText('{"a":123456789012345}', 5).numbersToCheck).toBe(false);
    expect(inspectJsonText('{"a":1.5E3}', 5).numbersToCheck).toBe(true);
    expect(inspectJsonText('{"a":true,"e":null}', 5).numbersToCheck).toBe(false);
  });
});
