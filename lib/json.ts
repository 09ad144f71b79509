import { z } from 'zod';
import { isJsonObject, type JsonObject } from '@toolgate/sdk/core';

/**
 * The JSON helpers every concept shares. Documents, arguments and results arrive as parsed JSON
 * from agents, browsers and upstream servers, so "is this an object" is asked everywhere; it is
 * answered here once, in the two strengths the callers need. Those two checks are defined in
 * packages/sdk/src/json.ts, since the SDK (which agents install alone) needs them too.
 */

export { isJsonObject, isPlainObject, type JsonObject } from '@toolgate/sdk/core';

/** `key` is the object's own property (not one inherited, such as `constructor`). */
export function hasOwn(value: unknown, key: string): boolean {
  return typeof value === 'object' && value !== null && Object.prototype.hasOwnProperty.call(value, key);
}

/**
 * A JSON object passed through untouched. Zod's record schema copies keys into a fresh object,
 * where a `__proto__` key would become a prototype; agent-supplied arguments must stay plain
 * data exactly as parsed, so they are checked, not copied.
 */
export function plainObject(description: string) {
  return z.custom<JsonObject>(isJsonObject, { message: 'must be a JSON object' }).describe(description);
}

/** The objects and arrays in a JSON value, counted up to just past `limit` (iterative: no depth limit). */
export function countJsonNodes(value: unknown, limit: number): number {
  let count = 0;
  const stack: unknown[] = [value];
  while (stack.length > 0 && count <= limit) {
    const node = stack.pop();
    if (typeof node !== 'object' || node === null) continue;
    count += 1;
    for (const child of Array.isArray(node) ? node : Object.values(node))
      if (typeof child === 'object' && child !== null) stack.push(child);
  }
  return count;
}
