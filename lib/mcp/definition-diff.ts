import { diffArrays } from 'diff';
import { escapeHiddenCharacters } from '../approvals/reveal-hidden-characters';
import type { UpstreamToolDefinition } from './tool-definition';

/**
 * A line diff of two upstream tool definitions, for the studio's drift review: each printed as
 * JSON (two-space indent; the top-level keys in the order a reader wants them, every nested
 * object's keys sorted, so key order alone never shows as a change), then compared line by line
 * with jsdiff. Browser-safe (no Node imports).
 *
 * Hidden characters inside strings are written as `\uXXXX` escapes, so a zero-width space or a
 * bidi override added to a description shows up as a changed line a person can see.
 *
 * Bounded: printing is iterative (no recursion to overflow), indentation stops growing past
 * MAX_INDENT levels, each side prints at most MAX_PRINTED_LINES lines, the diff gives up past
 * MAX_EDIT_LENGTH edits and then shows the differing middle as removed and added, and the answer
 * holds at most MAX_DIFF_LINES lines and a last line saying how many were left out.
 */

export interface DiffLine {
  op: ' ' | '+' | '-';
  text: string;
}

export const MAX_DIFF_LINES = 5_000;
export const MAX_PRINTED_LINES = 50_000;
// Myers' diff costs (lines × edits); past this many edits the texts are unrelated anyway.
export const MAX_EDIT_LENGTH = 1_000;
const MAX_INDENT = 32;
const TOP_ORDER = ['name', 'title', 'description', 'inputSchema', 'outputSchema', 'annotations'];

export function diffDefinitions(pinned: UpstreamToolDefinition, upstream: UpstreamToolDefinition): DiffLine[] {
  const before = printDefinition(pinned);
  const after = printDefinition(upstream);
  const lines: DiffLine[] = [];
  let total = 0;
  const emit = (op: DiffLine['op'], texts: readonly string[]) => {
    for (const text of texts) {
      if (lines.length < MAX_DIFF_LINES) lines.push({ op, text });
      total += 1;
    }
  };
  const changes = diffArrays(before, after, { maxEditLength: MAX_EDIT_LENGTH });
  if (changes) {
    for (const change of changes) emit(change.added ? '+' : change.removed ? '-' : ' ', change.value);
  } else {
    // Too different for the diff's budget: the common head and tail, and everything between as replaced.
    let head = 0;
    while (head < before.length && head < after.length && before[head] === after[head]) head += 1;
    let tail = 0;
    while (
      tail < before.length - head &&
      tail < after.length - head &&
      before[before.length - 1 - tail] === after[after.length - 1 - tail]
    ) {
      tail += 1;
    }
    emit(' ', before.slice(0, head));
    emit('-', before.slice(head, before.length - tail));
    emit('+', after.slice(head, after.length - tail));
    emit(' ', before.slice(before.length - tail));
  }
  if (total > lines.length)
    lines.push({ op: ' ', text: `… ${total - lines.length} more lines not shown (the diff is cut at ${MAX_DIFF_LINES}).` });
  return lines;
}

type Frame = { close: string; depth: number } | { value: unknown; depth: number; prefix: string; suffix: string; top?: boolean };

/** The definition as pretty-printed JSON lines, keys in a stable order (see above). */
export function printDefinition(definition: UpstreamToolDefinition): string[] {
  const lines: string[] = [];
  const stack: Frame[] = [{ value: definition, depth: 0, prefix: '', suffix: '', top: true }];
  while (stack.length > 0) {
    if (lines.length >= MAX_PRINTED_LINES) {
      lines.push(`… (cut at ${MAX_PRINTED_LINES} lines)`);
      break;
    }
    const frame = stack.pop() as Frame;
    const indent = '  '.repeat(Math.min(frame.depth, MAX_INDENT));
    if ('close' in frame) {
      lines.push(indent + frame.close);
      continue;
    }
    const { value, depth, prefix, suffix } = frame;
    if (typeof value !== 'object' || value === null) {
      lines.push(indent + prefix + escapeHiddenCharacters(JSON.stringify(value) ?? 'null') + suffix);
      continue;
    }
    const entries: [string, unknown][] = Array.isArray(value)
      ? value.map((item): [string, unknown] => ['', item])
      : orderKeys(Object.keys(value), frame.top === true)
          // As in JSON.stringify, an undefined member is an absent one.
          .filter((key) => (value as Record<string, unknown>)[key] !== undefined)
          .map((key): [string, unknown] => [`${escapeHiddenCharacters(JSON.stringify(key))}: `, (value as Record<string, unknown>)[key]]);
    const [open, close] = Array.isArray(value) ? ['[', ']'] : ['{', '}'];
    if (entries.length === 0) {
      lines.push(indent + prefix + open + close + suffix);
      continue;
    }
    lines.push(indent + prefix + open);
    stack.push({ close: close + suffix, depth });
    for (let i = entries.length - 1; i >= 0; i--) {
      const [childPrefix, child] = entries[i] as [string, unknown];
      stack.push({ value: child, depth: depth + 1, prefix: childPrefix, suffix: i === entries.length - 1 ? '' : ',' });
    }
  }
  return lines;
}

function orderKeys(keys: string[], top: boolean): string[] {
  const sorted = keys.sort();
  if (!top) return sorted;
  const first = TOP_ORDER.filter((key) => sorted.includes(key));
  return [...first, ...sorted.filter((key) => !TOP_ORDER.includes(key))];
}
