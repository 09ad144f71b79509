import { RE2JS } from 're2js';
import { toRe2Syntax } from '../contracts/json-schema-engine';
import { hasOwn, isPlainObject } from '../json';
import { ownValue, pointerSegments } from '../validation/json-path';
import type { PathSegment } from './parse-document';

/**
 * What a JSON Schema declares: whether an object key or a path into the arguments is admitted,
 * following local `$ref`s and the subschemas that constrain the same instance.
 */

/** Resolves a local `#/a/b` reference against the schema root; anchors are not followed. */
function resolveLocalRef(root: unknown, ref: string): unknown {
  if (ref !== '#' && !ref.startsWith('#/')) return undefined;
  let decoded: string;
  try {
    decoded = decodeURIComponent(ref.slice(1));
  } catch {
    return undefined;
  }
  let current: unknown = root;
  for (const segment of pointerSegments(decoded)) {
    current = Array.isArray(current) ? (current[Number(segment)] as unknown) : ownValue(current, segment);
    if (current === undefined) return undefined;
  }
  return current;
}

/**
 * The schemas that constrain the same instance as `schema`: itself plus, transitively, its
 * local `$ref` target and `allOf`/`anyOf`/`oneOf`/`then`/`else`/`dependentSchemas` branches.
 */
function sameInstanceSchemas(schema: unknown, root: unknown): Record<string, unknown>[] {
  const out: Record<string, unknown>[] = [];
  const seen = new Set<unknown>();
  const queue: unknown[] = [schema];
  while (queue.length > 0 && out.length < 1000) {
    const current = queue.pop();
    if (!isPlainObject(current) || seen.has(current)) continue;
    seen.add(current);
    out.push(current);
    const ref = ownValue(current, '$ref');
    if (typeof ref === 'string') queue.push(resolveLocalRef(root, ref));
    for (const keyword of ['allOf', 'anyOf', 'oneOf'] as const) {
      const branches = ownValue(current, keyword);
      if (Array.isArray(branches)) queue.push(...(branches as unknown[]));
    }
    queue.push(ownValue(current, 'then'), ownValue(current, 'else'));
    const dependent = ownValue(current, 'dependentSchemas');
    if (isPlainObject(dependent)) queue.push(...Object.values(dependent));
  }
  return out;
}

function patternMatches(pattern: string, key: string): boolean {
  try {
    return RE2JS.compile(toRe2Syntax(pattern)).test(key);
  } catch {
    // An unusable pattern is reported as REGEX_UNSAFE; it should not also cause a second finding.
    return true;
  }
}

export function declaresKey(schema: Record<string, unknown>, key: string, root: unknown): boolean {
  for (const candidate of sameInstanceSchemas(schema, root)) {
    if (hasOwn(ownValue(candidate, 'properties'), key)) return true;
    if (isPlainObject(ownValue(candidate, 'additionalProperties'))) return true;
    const patternProperties = ownValue(candidate, 'patternProperties');
    if (isPlainObject(patternProperties) && Object.keys(patternProperties).some((p) => patternMatches(p, key))) return true;
  }
  return false;
}

/**
 * Whether a path into the arguments (`['order', 'items', 0, 'sku']`) is declared by the input
 * schema. Answers `undeclared` only where the schema lists its properties and none of them (nor
 * `patternProperties` or an `additionalProperties` schema) admits the key; a free-form object
 * or array stops the search as `declared`, since nothing more can be known there.
 */
export function argumentPathStatus(root: unknown, path: readonly PathSegment[]): { declared: true } | { declared: false; depth: number } {
  const found = walkPath(root, path);
  return found.declared ? { declared: true } : found;
}

/**
 * The JSON Schema types the input schema allows at a declared path, or undefined when they
 * cannot be known: the path is undeclared or runs into a free-form value, or a schema there
 * constrains the value without a `type`.
 */
export function declaredTypesAt(root: unknown, path: readonly PathSegment[]): Set<string> | undefined {
  const found = walkPath(root, path);
  if (!found.declared || !found.schemas) return undefined;
  const types = new Set<string>();
  for (const schema of found.schemas) {
    const type = ownValue(schema, 'type');
    if (typeof type === 'string') types.add(type);
    else if (Array.isArray(type))
      for (const t of type)
        if (typeof t === 'string') types.add(t);
        // A schema that only combines others says nothing itself; one that constrains the value
        // without a type (`{}`, `{enum: …}`) admits what cannot be known here.
        else if (!['$ref', 'allOf', 'anyOf', 'oneOf'].some((keyword) => hasOwn(schema, keyword))) return undefined;
  }
  return types.size > 0 ? types : undefined;
}

type Walk = { declared: false; depth: number } | { declared: true; schemas: Record<string, unknown>[] | null };

/** Follows the path through the schema; `schemas` are those at its end, null past a free-form value. */
function walkPath(root: unknown, path: readonly PathSegment[]): Walk {
  let frontier = sameInstanceSchemas(root, root);
  for (let depth = 0; depth < path.length; depth++) {
    const segment = path[depth]!;
    const next: unknown[] = [];
    if (typeof segment === 'number') {
      for (const schema of frontier) {
        const prefixItems = ownValue(schema, 'prefixItems');
        if (Array.isArray(prefixItems) && segment < prefixItems.length) next.push(prefixItems[segment]);
        else if (ownValue(schema, 'items') !== undefined) next.push(ownValue(schema, 'items'));
      }
    } else {
      let listsProperties = false;
      for (const schema of frontier) {
        const properties = ownValue(schema, 'properties');
        if (isPlainObject(properties)) listsProperties = true;
        if (hasOwn(properties, segment)) next.push(ownValue(properties, segment));
        const additional = ownValue(schema, 'additionalProperties');
        if (isPlainObject(additional)) next.push(additional);
        const patternProperties = ownValue(schema, 'patternProperties');
        if (isPlainObject(patternProperties)) {
          for (const p of Object.keys(patternProperties)) if (patternMatches(p, segment)) next.push(patternProperties[p]);
        }
      }
      if (next.length === 0 && listsProperties) return { declared: false, depth };
    }
    if (next.length === 0) return { declared: true, schemas: null };
    frontier = next.flatMap((schema) => sameInstanceSchemas(schema, root));
    if (frontier.length === 0) return { declared: true, schemas: null };
  }
  return { declared: true, schemas: frontier };
}
