import { isJsonObject } from '../json';

/**
 * Writes each `path -> value` into a copy of the arguments, creating plain objects on the way.
 * The schema refuses `__proto__`, `prototype` and `constructor` segments; objects are still
 * built with defineProperty so no segment can reach a prototype.
 */
export function applySet(args: Record<string, unknown>, set: Record<string, unknown>): Record<string, unknown> {
  const out = structuredClone(args);
  for (const [path, value] of Object.entries(set)) {
    const segments = path.split('.');
    let target: Record<string, unknown> = out;
    for (const segment of segments.slice(0, -1)) {
      const next = Object.prototype.hasOwnProperty.call(target, segment) ? target[segment] : undefined;
      if (isJsonObject(next)) {
        target = next as Record<string, unknown>;
      } else {
        const created: Record<string, unknown> = {};
        Object.defineProperty(target, segment, { value: created, enumerable: true, writable: true, configurable: true });
        target = created;
      }
    }
    Object.defineProperty(target, segments[segments.length - 1] as string, {
      value: structuredClone(value),
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return out;
}
