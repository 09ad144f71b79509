/**
 * Which references in a contract schema stay inside the document. Besides `#…` fragments, a
 * `$ref` may name a schema resource embedded in the same document by its `$id` (resolved, as
 * JSON Schema 2020-12 says, against the base URI of the schema it sits in). Ajv resolves those
 * from the document itself; in the fixed configuration (no `loadSchema`) it never fetches
 * anything, and a reference it cannot resolve fails compilation. Everything else is refused
 * before Ajv sees it (CONTRACT_REMOTE_REF), so a contract never even names a network location.
 *
 * Browser-safe: the studio's linter runs this in a web worker.
 */

// Base for a document without a root `$id`, so relative ids (`item.json`) resolve against each
// other as they do in Ajv; no reference can point at it from outside.
const DOCUMENT_BASE = 'toolgate-schema://document/root.json';

// Keywords whose values are data, not subschemas: an `$id` inside them declares nothing.
const DATA_KEYWORDS = new Set(['const', 'enum', 'examples', 'default']);

export interface SchemaResources {
  /** Whether `ref`, found in `node` (a subschema of the root), resolves inside the document. */
  isLocal(node: object, ref: string): boolean;
}

export function schemaResources(root: unknown): SchemaResources {
  const baseOf = new Map<object, string>();
  const ids = new Set<string>();
  const stack: { value: unknown; base: string; depth: number }[] = [{ value: root, base: DOCUMENT_BASE, depth: 0 }];
  while (stack.length > 0) {
    const { value, base, depth } = stack.pop()!;
    if (typeof value !== 'object' || value === null || depth > 64) continue;
    if (Array.isArray(value)) {
      for (const item of value) stack.push({ value: item, base, depth: depth + 1 });
      continue;
    }
    const record = value as Record<string, unknown>;
    let own = base;
    const id = Object.prototype.hasOwnProperty.call(record, '$id') ? record.$id : undefined;
    if (typeof id === 'string') {
      const resolved = resolve(id, base);
      if (resolved !== null) {
        own = resolved;
        ids.add(resolved);
      }
    }
    baseOf.set(record, own);
    for (const key of Object.keys(record)) {
      if (!DATA_KEYWORDS.has(key)) stack.push({ value: record[key], base: own, depth: depth + 1 });
    }
  }
  ids.add(resolve('', baseOf.get(root as object) ?? DOCUMENT_BASE) ?? DOCUMENT_BASE);
  return {
    isLocal(node, ref) {
      if (ref.startsWith('#')) return true;
      const resolved = resolve(ref, baseOf.get(node) ?? DOCUMENT_BASE);
      return resolved !== null && ids.has(resolved);
    },
  };
}

/** `ref` resolved against `base`, without its fragment; null when it does not resolve. */
function resolve(ref: string, base: string): string | null {
  try {
    const url = new URL(ref, base);
    url.hash = '';
    return url.href;
  } catch {
    return null;
  }
}
