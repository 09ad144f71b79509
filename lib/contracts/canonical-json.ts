import { createHash } from 'node:crypto';
import { canonicalJson } from './canonical-json-core';

// The serializer lives in a module without Node imports so browser code can use it too; the
// native hash stays here, on the server's hot paths (evidence, argument hashes).
export { canonicalJson };

export function sha256Hex(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

export function hashCanonical(value: unknown): string {
  return sha256Hex(canonicalJson(value));
}
