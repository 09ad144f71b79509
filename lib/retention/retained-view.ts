import { parseRetainedPayload } from './retained-payload';
import { findUnrepresentableNumbers, inspectJsonText } from '../validation/json-numbers';

/** Records whose kept payloads are longer than this show only that they are kept (a trace holds up to 500 records). */
export const RETAINED_VIEW_MAX_CHARS = 64 * 1024;

/** The parts of a record's kept payloads, in the order a trace shows them. */
export const RETAINED_PARTS = ['arguments', 'transformed_arguments', 'context', 'result', 'error'] as const;
export type RetainedPart = (typeof RETAINED_PARTS)[number];

/**
 * What a trace shows of a record's raw payloads, redacted as stored: `kept` with the parts
 * there are, `purged` when the chain holds their digest but the retention purge removed them,
 * null when none were ever kept (retention off).
 *
 * A part that holds a number a double cannot hold (a call refused with
 * AXAG_NUMBER_UNREPRESENTABLE, docs/numbers.md) is given as its stored JSON text, and named in
 * `as_sent`: parsed, `1e309` would read as Infinity (and answer as null) and `9007199254740993`
 * as 9007199254740992, values the agent never sent.
 */
export type RetainedView =
  ({ status: 'kept'; too_large: boolean; as_sent?: RetainedPart[] } & { [part in RetainedPart]?: unknown }) | { status: 'purged' };

export function retainedView(row: { arguments: string | null; payload: string | null; payloadHash: string | null }): RetainedView | null {
  if (row.arguments === null && row.payload === null) return row.payloadHash ? { status: 'purged' } : null;
  if ((row.arguments?.length ?? 0) + (row.payload?.length ?? 0) > RETAINED_VIEW_MAX_CHARS) return { status: 'kept', too_large: true };
  const view: Extract<RetainedView, { status: 'kept' }> = { status: 'kept', too_large: false };
  const asSent: RetainedPart[] = [];
  if (row.arguments !== null) {
    if (holdsUnrepresentableNumber(row.arguments)) {
      view.arguments = row.arguments;
      asSent.push('arguments');
    } else {
      try {
        view.arguments = JSON.parse(row.arguments);
      } catch {
        view.arguments = row.arguments;
      }
    }
  }
  const payload = parseRetainedPayload(row.payload);
  if (payload && row.payload !== null) {
    const texts = holdsUnrepresentableNumber(row.payload) ? memberTexts(row.payload) : null;
    for (const key of ['context', 'result', 'error', 'transformed_arguments'] as const) {
      if (payload[key] === undefined) continue;
      const text = texts?.get(key);
      if (text !== undefined && holdsUnrepresentableNumber(text)) {
        view[key] = text;
        asSent.push(key);
      } else view[key] = payload[key];
    }
  }
  if (asSent.length > 0) view.as_sent = RETAINED_PARTS.filter((part) => asSent.includes(part));
  return view;
}

function holdsUnrepresentableNumber(text: string): boolean {
  return inspectJsonText(text, Number.POSITIVE_INFINITY).numbersToCheck && findUnrepresentableNumbers(text, 1).length > 0;
}

/**
 * The text of each member of a JSON object's text, by key (the text must be valid JSON, as
 * stored payloads are). A repeated key keeps its last text, as JSON.parse keeps its last value.
 */
export function memberTexts(text: string): Map<string, string> {
  const members = new Map<string, string>();
  const n = text.length;
  const isSpace = (c: string | undefined) => c === ' ' || c === '\n' || c === '\r' || c === '\t';
  const stringEnd = (from: number) => {
    let j = from + 1;
    while (j < n && text[j] !== '"') j += text[j] === '\\' ? 2 : 1;
    return j + 1;
  };
  let i = text.indexOf('{') + 1;
  if (i === 0) return members;
  for (;;) {
    while (isSpace(text[i])) i++;
    if (text[i] !== '"') return members;
    const keyEnd = stringEnd(i);
    const key = JSON.parse(text.slice(i, keyEnd)) as string;
    i = keyEnd;
    while (isSpace(text[i])) i++;
    i++; // the colon
    while (isSpace(text[i])) i++;
    const start = i;
    let depth = 0;
    while (i < n) {
      const c = text[i];
      if (c === '"') {
        i = stringEnd(i);
        continue;
      }
      if (c === '{' || c === '[') depth++;
      else if (c === '}' || c === ']') {
        if (depth === 0) break;
        depth--;
      } else if (c === ',' && depth === 0) break;
      i++;
    }
    let end = i;
    while (end > start && isSpace(text[end - 1])) end--;
    members.set(key, text.slice(start, end));
    if (text[i] !== ',') return members;
    i++;
  }
}
