/**
 * Browser-safe (no Node imports): the contract compiler, which the studio's linter runs in a web
 * worker, serializes with this module; server code imports it through canonical-json.ts.
 *
 * RFC 8785-style canonical JSON: object keys sorted by UTF-16 code units, no whitespace,
 * numbers and strings serialized as ECMAScript's JSON does. Two documents that mean the same
 * JSON get the same text, so hashes of contracts and evidence are stable across key order.
 *
 * Output is built as strings from `Object.keys`, never by assigning into fresh objects, so an
 * own `__proto__` key (which JSON.parse produces) is hashed as ordinary data.
 */
export function canonicalJson(value: unknown): string {
  return serialize(value, []);
}

// Built by string concatenation, with the open objects kept on an array: this runs on every
// validation (the argument hash), and per-level arrays, joins and a Set cost about twice as much.
function serialize(value: unknown, ancestors: object[]): string {
  if (value === null) return 'null';
  switch (typeof value) {
    case 'boolean':
      return value ? 'true' : 'false';
    case 'string':
      return JSON.stringify(value);
    case 'number':
      if (!Number.isFinite(value)) throw new TypeError(`canonicalJson: non-finite number ${value}`);
      // ECMAScript number-to-string is what RFC 8785 specifies; -0 becomes "0".
      return JSON.stringify(value);
    case 'object':
      break;
    default:
      throw new TypeError(`canonicalJson: unsupported value of type ${typeof value}`);
  }
  const object = value as object;
  if (ancestors.includes(object)) throw new TypeError('canonicalJson: cyclic structure');
  ancestors.push(object);
  try {
    if (Array.isArray(object)) {
      let out = '[';
      for (let i = 0; i < object.length; i++) {
        const item: unknown = object[i];
        out += (i === 0 ? '' : ',') + serialize(item === undefined ? null : item, ancestors);
      }
      return `${out}]`;
    }
    const proto: unknown = Object.getPrototypeOf(object);
    if (proto !== Object.prototype && proto !== null) {
      throw new TypeError('canonicalJson: only plain objects and arrays are supported');
    }
    const record = object as Record<string, unknown>;
    const keys = Object.keys(record).sort();
    let out = '{';
    for (let i = 0; i < keys.length; i++) {
      const key = keys[i] as string;
      const member = record[key];
      // Matches JSON.stringify: an undefined member is the same as an absent one.
      if (member === undefined) continue;
      out += (out.length === 1 ? '' : ',') + JSON.stringify(key) + ':' + serialize(member, ancestors);
    }
    return `${out}}`;
  } finally {
    ancestors.pop();
  }
}
