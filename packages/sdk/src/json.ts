/**
 * The two JSON object checks, in the strengths callers need, and the JSON text the client sends.
 * Defined in the SDK because the contract format (contract-schema.ts) uses one and the SDK runs
 * without the server; lib/json.ts gives them to the server with the rest of its JSON helpers.
 */

import { formatJsonPath } from './json-path.ts';

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

/**
 * JSON.stringify for what is sent to Toolgate, refusing what it would change without a word:
 * NaN and ±Infinity (written as null) and BigInt (a bare TypeError), each named by its path from
 * the root (`$.result.total`). A circular structure throws JSON.stringify's own TypeError.
 */
export function toJsonText(value: unknown): string {
  const paths = new WeakMap<object, (string | number)[]>();
  return JSON.stringify(value, function (this: unknown, key: string, item: unknown) {
    const holder = this as object;
    const parent = paths.get(holder);
    const at = parent ? [...parent, Array.isArray(holder) ? Number(key) : key] : [];
    if (typeof item === 'number' && !Number.isFinite(item))
      throw new TypeError(`${formatJsonPath(at)} is ${String(item)}, which JSON cannot carry (it would be sent as null)`);
    if (typeof item === 'bigint')
      throw new TypeError(`${formatJsonPath(at)} is a BigInt (${clipText(String(item))}n), which JSON cannot carry`);
    if (typeof item === 'object' && item !== null) paths.set(item, at);
    return item;
  });
}

function clipText(text: string): string {
  return text.length <= 40 ? text : `${text.slice(0, 20)}…${text.slice(-12)}`;
}
