import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canonicalJson, hashCanonical, sha256Hex } from './canonical-json';

describe('canonicalJson', () => {
  it('sorts keys, drops whitespace and serializes numbers as ECMAScript does', () => {
    expect(canonicalJson({ b: [1, 2.5, -0, 1e21], a: { d: null, c: 'x"y' } })).toBe('{"a":{"c":"x\\"y","d":null},"b":[1,2.5,0,1e+21]}');
    expect(canonicalJson({ a: undefined, b: true })).toBe('{"b":true}');
  });

  it('sorts by UTF-16 code units (RFC 8785)', () => {
    expect(canonicalJson({ '\u00e9': 1, z: 2, '\ud83d\ude00': 3, A: 4 })).toBe('{"A":4,"z":2,"é":1,"😀":3}');
  });

  it('rejects non-finite numbers, cycles and non-JSON values', () => {
    expect(() => canonicalJson({ n: Number.NaN })).toThrow(/non-finite/);
    expect(() => canonicalJson([Number.POSITIVE_INFINITY])).toThrow(/non-finite/);
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(() => canonicalJson(cyclic)).toThrow(/cyclic/);
    expect(() => canonicalJson({ d: new Date(0) })).toThrow(/plain objects/);
    expect(() => canonicalJson(10n)).toThrow(/unsupported/);
  });

  it('hashes an own __proto__ key as data, different from {}', () => {
    const parsed = JSON.parse('{"__proto__": {"polluted": true}}') as unknown;
    expect(canonicalJson(parsed)).toBe('{"__proto__":{"polluted":true}}');
    expect(hashCanonical(parsed)).not.toBe(hashCanonical({}));
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('is stable under key order and JSON round trips', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const text = canonicalJson(value);
        expect(canonicalJson(JSON.parse(text))).toBe(text);
        expect(JSON.parse(text)).toEqual(JSON.parse(JSON.stringify(value)));
      }),
    );
  });

  it('sha256Hex matches a known vector', () => {
    expect(sha256Hex('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });
});
