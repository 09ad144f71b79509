import { isPlainObject } from '../json';
import { formatJsonPath, ownValue } from '../validation/json-path';
import type { PathSegment } from './parse-document';

/**
 * Turns a JSONPath string from the compiler back into segments, guided by the document itself:
 * at each step the member whose formatted segment prefixes the rest of the path is taken, so
 * keys with dots, quotes or brackets in them resolve without parsing the quoting rules. Its own
 * module so the studio's quick fixes run it in the page without the contract compiler.
 */
export function segmentsOfJsonPath(root: unknown, path: string): PathSegment[] {
  const out: PathSegment[] = [];
  if (!path.startsWith('$')) return out;
  let rest = path.slice(1);
  let current = root;
  while (rest.length > 0 && out.length < 100) {
    const members: PathSegment[] = Array.isArray(current) ? current.map((_, i) => i) : isPlainObject(current) ? Object.keys(current) : [];
    let best: { segment: PathSegment; length: number } | undefined;
    for (const segment of members) {
      const text = formatJsonPath([segment]).slice(1);
      const boundary = rest[text.length];
      if (rest.startsWith(text) && (boundary === undefined || boundary === '.' || boundary === '[') && text.length > (best?.length ?? 0)) {
        best = { segment, length: text.length };
      }
    }
    if (!best) break;
    out.push(best.segment);
    rest = rest.slice(best.length);
    current = typeof best.segment === 'number' ? (current as unknown[])[best.segment] : ownValue(current, best.segment);
  }
  return out;
}
