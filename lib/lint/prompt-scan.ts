/**
 * Reads a system prompt once, left to right, into the words a tool-surface check can look up,
 * skipping what Harn's prompt scan skips: fenced code blocks, and lines hidden by
 * `<!-- harn-tool-surface: ignore-next-line -->` or between `ignore-start` and `ignore-end`.
 * The prompt is untrusted and up to ~100k characters, so this is one linear pass with no
 * regular expressions; callers then look each word up in a Map instead of searching the prompt
 * once per tool.
 *
 * Rules, line by line (a line ends at `\n`; a trailing `\r` is dropped):
 * - A fence opens on a line that starts (after at most three spaces) with three or more `` ` ``
 *   or `~` (a backtick fence's info string may not contain a backtick, as in CommonMark) and
 *   closes on a line of at least as many of the same character and nothing else. An
 *   unterminated fence hides the rest of the prompt, as in Markdown, and is reported.
 * - A marker is a line holding only `<!-- harn-tool-surface: <directive> -->` (spaces free).
 *   `ignore-next-line` hides the very next line, whatever it holds (a marker there is hidden
 *   too). `ignore-start` hides every line up to the next `ignore-end`; fences and other markers
 *   inside are not interpreted. An `ignore-start` without its end hides the rest of the prompt
 *   and is reported, as is an `ignore-end` with no `ignore-start`.
 */

export type PromptScanCode =
  'SURFACE_PROMPT_UNTERMINATED_IGNORE' | 'SURFACE_PROMPT_UNMATCHED_IGNORE_END' | 'SURFACE_PROMPT_UNTERMINATED_FENCE';

/** A maximal run `[A-Za-z_][A-Za-z0-9_]*`, with inner `.`/`-` joining further runs. */
export interface PromptWord {
  text: string;
  /** Offsets in the prompt text, end exclusive. */
  start: number;
  end: number;
  /** 1-based line and column (UTF-16 code units, as Monaco counts) of `start`. */
  line: number;
  column: number;
  /** Directly followed by `(`, as in `run_command(`; `word(s)` and `word(es)` are plurals, not calls. */
  call: boolean;
  /** Inline code: a backtick right before and right after, as in `` `orders.lookup` ``. */
  code: boolean;
  /** Followed by `:` or `=` (after an optional closing quote): an argument key in a call. */
  key: boolean;
  /** Index in `words` of the call whose brackets enclose this word, or -1. */
  enclosingCall: number;
}

export interface PromptScanProblem {
  code: PromptScanCode;
  message: string;
  line: number;
  column: number;
  endColumn: number;
}

export interface PromptScan {
  words: PromptWord[];
  problems: PromptScanProblem[];
}

const MARKER_PREFIX = 'harn-tool-surface:';
type Directive = 'ignore-next-line' | 'ignore-start' | 'ignore-end';
// Deeper nesting is still counted (so brackets stay balanced) but no longer attributed.
const MAX_BRACKET_DEPTH = 64;

export function scanPrompt(text: string): PromptScan {
  const words: PromptWord[] = [];
  const problems: PromptScanProblem[] = [];
  // The innermost call each open bracket belongs to; reset at paragraph breaks and hidden lines
  // so an unclosed `(` in prose cannot capture the rest of the prompt.
  const brackets: number[] = [];
  let overflow = 0;
  const resetBrackets = () => {
    brackets.length = 0;
    overflow = 0;
  };

  let fence: { char: number; length: number; line: number; column: number; endColumn: number } | undefined;
  let ignore: { line: number; column: number; endColumn: number } | undefined;
  let hideNext = false;

  let lineNumber = 0;
  let lineStart = 0;
  while (lineStart <= text.length) {
    lineNumber += 1;
    const newline = text.indexOf('\n', lineStart);
    const next = newline === -1 ? text.length + 1 : newline + 1;
    let lineEnd = newline === -1 ? text.length : newline;
    if (lineEnd > lineStart && text.charCodeAt(lineEnd - 1) === 13) lineEnd -= 1;

    const line = { start: lineStart, end: lineEnd, number: lineNumber };
    lineStart = next;

    if (fence) {
      if (closesFence(text, line.start, line.end, fence.char, fence.length)) fence = undefined;
      continue;
    }
    const marker = readMarker(text, line.start, line.end);
    if (ignore) {
      if (marker?.directive === 'ignore-end') ignore = undefined;
      continue;
    }
    if (hideNext) {
      hideNext = false;
      resetBrackets();
      continue;
    }
    if (marker) {
      resetBrackets();
      const at = { line: line.number, column: marker.start - line.start + 1, endColumn: marker.end - line.start + 1 };
      if (marker.directive === 'ignore-next-line') hideNext = true;
      else if (marker.directive === 'ignore-start') ignore = at;
      else {
        problems.push({
          code: 'SURFACE_PROMPT_UNMATCHED_IGNORE_END',
          message: 'This `ignore-end` marker has no `ignore-start` before it, so it hides nothing.',
          ...at,
        });
      }
      continue;
    }
    const opened = opensFence(text, line.start, line.end);
    if (opened) {
      resetBrackets();
      fence = { ...opened, line: line.number, column: opened.at - line.start + 1, endColumn: line.end - line.start + 1 };
      continue;
    }
    if (isBlank(text, line.start, line.end)) {
      resetBrackets();
      continue;
    }

    // Words and brackets on a visible line.
    let i = line.start;
    while (i < line.end) {
      const c = text.charCodeAt(i);
      if (isWordChar(c)) {
        let end = i + 1;
        for (;;) {
          while (end < line.end && isWordChar(text.charCodeAt(end))) end += 1;
          const joiner = text.charCodeAt(end);
          if (end + 1 < line.end && (joiner === 46 || joiner === 45) && isWordChar(text.charCodeAt(end + 1))) end += 2;
          else break;
        }
        // A run starting with a digit is a number (`3rd`, `2.5`), never a name.
        if (!isDigit(c)) words.push(readWord(text, i, end, line, brackets, overflow));
        i = end;
        continue;
      }
      if (c === 40 || c === 91 || c === 123) {
        if (brackets.length >= MAX_BRACKET_DEPTH) overflow += 1;
        else {
          const previous = words[words.length - 1];
          const isCallParen = c === 40 && previous !== undefined && previous.end === i && previous.call;
          brackets.push(isCallParen ? words.length - 1 : (brackets[brackets.length - 1] ?? -1));
        }
      } else if (c === 41 || c === 93 || c === 125) {
        if (overflow > 0) overflow -= 1;
        else brackets.pop();
      }
      i += 1;
    }
  }

  if (fence) {
    problems.push({
      code: 'SURFACE_PROMPT_UNTERMINATED_FENCE',
      message: 'This code fence is never closed, so the rest of the prompt is not checked.',
      line: fence.line,
      column: fence.column,
      endColumn: fence.endColumn,
    });
  }
  if (ignore) {
    problems.push({
      code: 'SURFACE_PROMPT_UNTERMINATED_IGNORE',
      message: 'This `ignore-start` marker has no `ignore-end`, so the rest of the prompt is not checked.',
      ...ignore,
    });
  }
  return { words, problems };
}

function readWord(
  text: string,
  start: number,
  end: number,
  line: { start: number; number: number; end: number },
  brackets: readonly number[],
  overflow: number,
): PromptWord {
  const after = text.charCodeAt(end);
  const plural =
    after === 40 &&
    ((text.charCodeAt(end + 1) === 115 && text.charCodeAt(end + 2) === 41) ||
      (text.charCodeAt(end + 1) === 101 && text.charCodeAt(end + 2) === 115 && text.charCodeAt(end + 3) === 41));
  let k = end;
  if (k < line.end && (text.charCodeAt(k) === 34 || text.charCodeAt(k) === 39)) k += 1;
  while (k < line.end && (text.charCodeAt(k) === 32 || text.charCodeAt(k) === 9)) k += 1;
  const sign = text.charCodeAt(k);
  const following = text.charCodeAt(k + 1);
  const key = k < line.end && (sign === 58 || (sign === 61 && following !== 61 && following !== 62));
  return {
    text: text.slice(start, end),
    start,
    end,
    line: line.number,
    column: start - line.start + 1,
    call: after === 40 && end < line.end && !plural,
    code: start > line.start && text.charCodeAt(start - 1) === 96 && after === 96 && end < line.end,
    key,
    enclosingCall: overflow > 0 ? -1 : (brackets[brackets.length - 1] ?? -1),
  };
}

function readMarker(text: string, start: number, end: number): { directive: Directive; start: number; end: number } | undefined {
  let a = start;
  let b = end;
  while (a < b && isSpace(text.charCodeAt(a))) a += 1;
  while (b > a && isSpace(text.charCodeAt(b - 1))) b -= 1;
  // Cheap rejection first: almost no prompt line is a marker.
  if (b - a < 4 + MARKER_PREFIX.length + 3 || !text.startsWith('<!--', a) || !text.startsWith('-->', b - 3)) return undefined;
  const inner = text.slice(a + 4, b - 3).trim();
  if (!inner.startsWith(MARKER_PREFIX)) return undefined;
  const directive = inner.slice(MARKER_PREFIX.length).trim();
  if (directive === 'ignore-next-line' || directive === 'ignore-start' || directive === 'ignore-end') {
    return { directive, start: a, end: b };
  }
  return undefined;
}

function opensFence(text: string, start: number, end: number): { char: number; length: number; at: number } | undefined {
  let i = start;
  while (i < end && i - start < 3 && text.charCodeAt(i) === 32) i += 1;
  const char = text.charCodeAt(i);
  if (char !== 96 && char !== 126) return undefined;
  const at = i;
  while (i < end && text.charCodeAt(i) === char) i += 1;
  const length = i - at;
  if (length < 3) return undefined;
  if (char === 96) {
    for (let j = i; j < end; j++) if (text.charCodeAt(j) === 96) return undefined;
  }
  return { char, length, at };
}

function closesFence(text: string, start: number, end: number, char: number, length: number): boolean {
  let i = start;
  while (i < end && i - start < 3 && text.charCodeAt(i) === 32) i += 1;
  const at = i;
  while (i < end && text.charCodeAt(i) === char) i += 1;
  if (i - at < length) return false;
  return isBlank(text, i, end);
}

function isBlank(text: string, start: number, end: number): boolean {
  for (let i = start; i < end; i++) if (!isSpace(text.charCodeAt(i))) return false;
  return true;
}

function isSpace(c: number): boolean {
  return c === 32 || c === 9 || c === 13 || c === 12 || c === 11;
}

function isDigit(c: number): boolean {
  return c >= 48 && c <= 57;
}

function isWordChar(c: number): boolean {
  return (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || isDigit(c) || c === 95;
}
