const MAX_VALUE_CHARS = 80;

// What JSON.stringify escapes in a string (and any surrogate, paired or not, to be safe).
const ESCAPED = /["\\\u0000-\u001f\ud800-\udfff]/;

/**
 * A value as an issue message quotes it: JSON, cut short so that a model which sent a megabyte
 * string does not get it echoed back. Every refused call quotes one or two values, so a string
 * is written without JSON.stringify when nothing in it needs escaping, and only its first
 * MAX_VALUE_CHARS characters are looked at (no copy of the megabyte before cutting it).
 */
export function describeValue(value: unknown): string {
  let text: string;
  if (typeof value === 'string') {
    const head = value.length > MAX_VALUE_CHARS ? value.slice(0, MAX_VALUE_CHARS) : value;
    text = ESCAPED.test(head) ? JSON.stringify(head) : `"${head}"`;
    // The quoted head of a longer string is already past the cut; its closing quote goes with it.
  } else {
    try {
      text = value === undefined ? 'undefined' : (JSON.stringify(value) ?? String(value));
    } catch {
      text = String(value);
    }
  }
  return text.length > MAX_VALUE_CHARS ? `${text.slice(0, MAX_VALUE_CHARS - 1)}…` : text;
}
