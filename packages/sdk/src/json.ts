/**
 * The two JSON object checks, in the strengths callers need. Defined in the SDK because the
 * contract format (contract-schema.ts) uses one and the SDK runs without the server; lib/json.ts
 * gives them to the server with the rest of its JSON helpers.
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
