// Runs in Chromium (bench/sha256/run.ts): the studio hashes compiled contracts in the browser.
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js';
import { sha256HexPortable as handWritten } from './hand-written-sha256';
import { sha256HexPortable } from '../../lib/contracts/sha256';

// What lib/contracts/sha256.ts now is, and the bare library call, to show the wrapper costs nothing.
const noble = (text: string) => bytesToHex(sha256(utf8ToBytes(text)));

function measure(hash: (text: string) => string, text: string, ms: number): number {
  const end = performance.now() + ms;
  let n = 0;
  const start = performance.now();
  while (performance.now() < end) {
    hash(text);
    n++;
  }
  return ((performance.now() - start) * 1000) / n;
}

(globalThis as unknown as { runBench: (sizes: number[], ms: number) => unknown }).runBench = (sizes, ms) =>
  sizes.map((size) => {
    const text = JSON.stringify({ id: 'refund_order', text: 'x'.repeat(size) }).slice(0, size);
    if (noble(text) !== handWritten(text) || sha256HexPortable(text) !== noble(text)) throw new Error('implementations disagree');
    // Interleaved rounds, best of three each, so a noisy moment does not favour either.
    const ours: number[] = [];
    const theirs: number[] = [];
    for (let round = 0; round < 3; round++) {
      ours.push(measure(handWritten, text, ms));
      theirs.push(measure(sha256HexPortable, text, ms));
    }
    return { size, portable: Math.min(...ours), noble: Math.min(...theirs) };
  });
