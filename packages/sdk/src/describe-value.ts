const MAX_VALUE_CHARS = 80;

/**
 * A value as an issue message quotes it: JSON, cut short so that a model which sent a megabyte
 * string does not get it echoed back.
 */
export function describeValue(value: unknown): string {
  let text: string;
  try {
    text = value === undefined ? 'undefined' : (JSON.stringify(value) ?? String(value));
  } catch {
    text = String(value);
  }
  return text.length > MAX_VALUE_CHARS ? `${text.slice(0, MAX_VALUE_CHARS - 1)}…` : text;
}
