import { z } from 'zod';

/**
 * The JSON helpers every concept shares. Documents, arguments and results arrive as parsed JSON
 * from agents, browsers and upstream servers, so "is this an object" is asked everywhere; it is
 * answered here once, in the two strengths the callers need.
 */

export type JsonObject = Record<string, unknown>;

/** An object that is not an array or null: what `JSON.parse` gives for `{...}`. */
export function isJsonObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * A JSON object whose prototype is Object's or null: what `JSON.parse` gives, and not a class
 * instance, a Map or a Date. For documents that are hashed or compiled, where an exotic object
 * would serialise differently from what was checked.
 */
export function isPlainObject(value: unknown): value is JsonObject {
  if (!isJsonObject(value)) return false;
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

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
