// formatJsonPath is defined in the SDK, which writes the same paths into the issues it reports.
export { formatJsonPath } from '@toolgate/sdk/core';

/** Splits an Ajv `instancePath` (a JSON Pointer) into its unescaped segments. */
export function pointerSegments(pointer: string): string[] {
  if (pointer === '') return [];
  const rest = pointer.slice(1);
  if (!pointer.includes('~')) return rest.includes('/') ? rest.split('/') : [rest];
  return rest.split('/').map((segment) => segment.replace(/~1/g, '/').replace(/~0/g, '~'));
}

const ARRAY_INDEX = /^(0|[1-9]\d*)$/;

/**
 * Turns an instance pointer into JSON path segments, using the data itself to tell array
 * indexes from object keys that merely look numeric.
 */
export function instanceSegments(root: unknown, pointer: string): (string | number)[] {
  const segments: (string | number)[] = [];
  let current: unknown = root;
  for (const raw of pointerSegments(pointer)) {
    if (Array.isArray(current) && ARRAY_INDEX.test(raw)) {
      segments.push(Number(raw));
      current = current[Number(raw)];
    } else {
      segments.push(raw);
      current = ownValue(current, raw);
    }
  }
  return segments;
}

/** Own-property read; never follows the prototype chain (so `__proto__` is plain data). */
export function ownValue(container: unknown, key: string): unknown {
  if (typeof container !== 'object' || container === null) return undefined;
  return Object.prototype.hasOwnProperty.call(container, key) ? (container as Record<string, unknown>)[key] : undefined;
}

/** Reads a dotted argument path such as `order.customer.tenant_id`, own properties only. */
export function readDottedPath(root: unknown, dotted: string): unknown {
  // Scope paths are usually one key (`tenant_id`); this runs on every call.
  if (!dotted.includes('.')) return ownValue(root, dotted);
  let current: unknown = root;
  for (const key of dotted.split('.')) {
    current = ownValue(current, key);
    if (current === undefined) return undefined;
  }
  return current;
}
