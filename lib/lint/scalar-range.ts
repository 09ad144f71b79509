import type { ParsedDocument } from './parse-document';
import type { SourceRange } from './types';

/**
 * Narrows a scalar's range to characters `start..end` of its value, when the value is written
 * on one line verbatim (plain, or quoted without escapes); otherwise keeps the whole scalar.
 * Findings inside a CEL expression underline the part they are about this way.
 */
export function rangeInsideScalar(parsed: ParsedDocument, range: SourceRange, value: string, start: number, end: number): SourceRange {
  if (range.startLine !== range.endLine) return range;
  const line = lineText(parsed.text, range.startLine);
  const source = line.slice(range.startColumn - 1, range.endColumn - 1);
  const offset = source === value ? 0 : source === `"${value}"` || source === `'${value}'` ? 1 : -1;
  if (offset < 0) return range;
  return {
    startLine: range.startLine,
    startColumn: range.startColumn + offset + start,
    endLine: range.startLine,
    endColumn: range.startColumn + offset + end,
  };
}

function lineText(text: string, line: number): string {
  let start = 0;
  for (let n = 1; n < line; n++) {
    const next = text.indexOf('\n', start);
    if (next < 0) return '';
    start = next + 1;
  }
  const end = text.indexOf('\n', start);
  return text.slice(start, end < 0 ? text.length : end).replace(/\r$/, '');
}
