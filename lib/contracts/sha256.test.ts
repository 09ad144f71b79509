import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { hashCanonical } from './canonical-json';
import { compileContract } from './compile-contract';
import { EXAMPLE_CONTRACTS } from './examples';
import { sha256HexPortable } from './sha256';

const native = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');

describe('sha256HexPortable', () => {
  it('matches the FIPS 180-4 vectors', () => {
    expect(sha256HexPortable('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    expect(sha256HexPortable('')).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
    expect(sha256HexPortable('abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq')).toBe(
      '248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1',
    );
  });

  it('matches node:crypto at every padding boundary and on arbitrary text', () => {
    for (let n = 0; n < 200; n++) expect(sha256HexPortable('x'.repeat(n))).toBe(native('x'.repeat(n)));
    expect(sha256HexPortable('lone \ud800 surrogate')).toBe(native('lone \ud800 surrogate'));
    fc.assert(fc.property(fc.string({ unit: 'binary', maxLength: 300 }), (text) => sha256HexPortable(text) === native(text)));
  });

  it('keeps compiled contract hashes equal to the native hash of their canonical JSON', () => {
    for (const example of EXAMPLE_CONTRACTS) {
      const result = compileContract(example);
      if (!result.ok) throw new Error(JSON.stringify(result.problems));
      expect(result.contract.hash).toBe(hashCanonical(result.contract.document));
    }
  });
});
