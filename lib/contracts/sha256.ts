import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js';

/**
 * SHA-256 for code that must also run in the browser (the contract compiler inside the studio's
 * linter), where `node:crypto` is not available; @noble/hashes is audited and, in Chromium, as
 * fast as the hand-written version it replaced (`npm run bench:sha256`). Server hot paths keep
 * using `sha256Hex` from canonical-json.ts, which is native; both give the same hex.
 */
export function sha256HexPortable(text: string): string {
  // utf8ToBytes is TextEncoder: lone surrogates become U+FFFD, as in Node's hash of a string.
  return bytesToHex(sha256(utf8ToBytes(text)));
}
