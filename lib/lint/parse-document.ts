import { isJsonObject } from '../json';
import {
  clipToken,
  describeNumberProblem,
  findUnrepresentableNumbers,
  inspectJsonText,
  type NumberProblem,
} from '../validation/json-numbers';
import { formatJsonPath } from '../validation/json-path';
import { parseJsonWithSpans, type SpanNode } from './json-syntax';
import type { Diagnostic, DocumentFormat, SourceRange } from './types';
import { parseYamlFast } from './yaml-fast';
import { yamlMayNestDeeperThan } from './yaml-nesting';
import { parseYamlFull } from './yaml-full';

/**
 * Parses a JSON or YAML document into plain data plus a map from every value's path to its
 * place in the text, so that any check written against the data can underline its finding.
 * JSON has its own strict parser (json-syntax.ts); YAML is YAML 1.2 core (yaml-fast.ts for the
 * common subset, yaml-full.ts with the `yaml` package for the rest).
 */

/** What the parser itself can say about a document, whatever its kind. */
export const DOCUMENT_CODES = {
  DOCUMENT_PARSE_ERROR: { severity: 'error', summary: 'The text is not valid JSON or YAML (JSON files must be strict JSON).' },
  DOCUMENT_DUPLICATE_KEY: { severity: 'error', summary: 'An object has the same key twice.' },
  DOCUMENT_TOO_LARGE: {
    severity: 'error',
    summary:
      'The document is over 1,000,000 characters, nests deeper than 64 levels, or expands (YAML aliases) to over 200,000 values or 10,000,000 characters of strings.',
  },
  DOCUMENT_EMPTY: { severity: 'error', summary: 'The document is empty.' },
  DOCUMENT_NUMBER_UNREPRESENTABLE: {
    severity: 'error',
    summary:
      'A number cannot be held exactly by a double (beyond ±1.8e308, an integer beyond ±(2^53−1), or in JSON a non-zero number that reads as 0): it would be silently changed. Write it as a string.',
  },
} as const;

/** Documents past this are refused before parsing: the studio, API and CLI share the bound. */
export const MAX_DOCUMENT_CHARS = 1_000_000;
/** Bounds nodes after alias expansion (the "billion laughs" document) and nesting depth. */
const MAX_NODES = 200_000;
const MAX_DEPTH = 64;
/**
 * Bounds the characters of strings and keys after alias expansion: a 100 KB string aliased
 * through twelve doubling anchors held the contract linter 1.8 s building 512 MB of canonical JSON.
 */
const MAX_EXPANDED_CHARS = 10 * MAX_DOCUMENT_CHARS;

export type PathSegment = string | number;

export interface ParsedDocument {
  format: DocumentFormat;
  text: string;
  /** Undefined when the text did not parse; `diagnostics` then says why. */
  value: unknown;
  /** Parse errors (code `DOCUMENT_PARSE_ERROR`, `DOCUMENT_TOO_LARGE`, `DOCUMENT_DUPLICATE_KEY`). */
  diagnostics: Diagnostic[];
  /**
   * Where `path` sits in the text. `part: 'key'` underlines an object member's key (for
   * "unknown key", "missing field"), `'value'` its value. A path that does not exist falls
   * back to its nearest existing ancestor, so every finding gets a range.
   */
  locate(path: readonly PathSegment[], part?: 'key' | 'value'): SourceRange;
  /** Line/column of a character offset in the text. */
  rangeOfOffsets(start: number, end: number): SourceRange;
}

/** Guesses the format when the caller does not say: JSON documents start with `{` or `[`. */
export function detectFormat(text: string): DocumentFormat {
  return /^\s*[[{]/.test(text) ? 'json' : 'yaml';
}

export function parseDocument(text: string, format: DocumentFormat = detectFormat(text)): ParsedDocument {
  const lineStarts = computeLineStarts(text);
  const rangeOfOffsets = (start: number, end: number): SourceRange => {
    const a = position(lineStarts, start);
    const b = position(lineStarts, Math.max(end, start));
    return { startLine: a.line, startColumn: a.column, endLine: b.line, endColumn: b.column };
  };
  let root: SpanNode | undefined;
  const diagnostics: Diagnostic[] = [];
  // Findings about the document as a whole (or a missing top-level field) underline line 1.
  const wholeDocument = rangeOfOffsets(0, Math.max(0, (lineStarts[1] ?? text.length + 1) - 1));
  const locate = (path: readonly PathSegment[], part: 'key' | 'value' = 'value'): SourceRange => {
    if (!root) return wholeDocument;
    let node = root;
    let depth = 0;
    for (const segment of path) {
      const children = node.children;
      const next = Array.isArray(children) ? (typeof segment === 'number' ? children[segment] : undefined) : children?.get(String(segment));
      if (!next) break;
      node = next;
      depth += 1;
    }
    if (depth === 0 && path.length > 0) return wholeDocument;
    // The exact node: its key if asked and it has one. An ancestor (the path does not exist):
    // its key, so "missing field" underlines the object's name rather than the whole object.
    const useKey = node.key && (depth < path.length || part === 'key');
    const [start, end] = useKey && node.key ? node.key : node.value;
    return rangeOfOffsets(start, end);
  };
  const result = (value: unknown): ParsedDocument => ({ format, text, value, diagnostics, locate, rangeOfOffsets });
  const fail = (code: string, message: string, range: SourceRange) => {
    diagnostics.push({ code, severity: 'error', message, path: '$', range, target: 'document' });
    return result(undefined);
  };

  if (text.length > MAX_DOCUMENT_CHARS) {
    return fail('DOCUMENT_TOO_LARGE', `The document is ${text.length} characters; the limit is ${MAX_DOCUMENT_CHARS}.`, wholeDocument);
  }
  if (text.trim() === '') return fail('DOCUMENT_EMPTY', 'The document is empty.', wholeDocument);

  if (format === 'json') {
    // JSON gets its own parser: ten times faster than YAML's for the same text, and strict
    // (a file that says it is JSON must be JSON, as other tools will read it so).
    const parsed = parseJsonWithSpans(text, MAX_DEPTH);
    if (!parsed.ok) {
      if (parsed.tooDeep) return fail('DOCUMENT_TOO_LARGE', parsed.message, wholeDocument);
      const duplicate = parsed.message.startsWith('Duplicate key');
      return fail(
        duplicate ? 'DOCUMENT_DUPLICATE_KEY' : 'DOCUMENT_PARSE_ERROR',
        `JSON syntax: ${parsed.message}`,
        rangeOfOffsets(parsed.offset, parsed.offset + 1),
      );
    }
    root = parsed.spans;
    if (inspectJsonText(text, MAX_DEPTH + 1).numbersToCheck) {
      for (const finding of findUnrepresentableNumbers(text, 20)) {
        diagnostics.push(numberDiagnostic(finding.path, finding.token, finding.problem, rangeOfOffsets(finding.start, finding.end)));
      }
    }
    return result(parsed.value);
  }

  // YAML in the subset yaml-fast.ts reads (what the studio and `yaml.stringify` write,
  // multi-line strings aside) takes that path, about ten times quicker than the `yaml`
  // package; anything else, syntax errors included, takes the full parser.
  const fast = parseYamlFast(text, MAX_NODES, MAX_DEPTH);
  if (fast) {
    root = fast.spans;
    diagnostics.push(...yamlNumberDiagnostics(fast.value, locate));
    return result(fast.value);
  }
  // Before the `yaml` package sees it: nesting deep enough to abort the process (yaml-nesting.ts).
  if (yamlMayNestDeeperThan(text, 2 * MAX_DEPTH))
    return fail('DOCUMENT_TOO_LARGE', `The document nests deeper than ${MAX_DEPTH} levels.`, wholeDocument);
  const full = parseYamlFull(text, MAX_NODES, MAX_DEPTH, MAX_EXPANDED_CHARS);
  if (full.kind === 'errors') {
    for (const error of full.errors.slice(0, 20)) {
      const duplicate = error.code === 'DUPLICATE_KEY';
      diagnostics.push({
        code: duplicate ? 'DOCUMENT_DUPLICATE_KEY' : 'DOCUMENT_PARSE_ERROR',
        severity: 'error',
        message: `YAML syntax: ${yamlErrorMessage(error)}`,
        path: '$',
        range: rangeOfOffsets(error.pos[0], Math.max(error.pos[1], error.pos[0] + 1)),
        target: 'document',
      });
    }
    return result(undefined);
  }
  if (full.kind === 'limit') return fail('DOCUMENT_TOO_LARGE', full.message, wholeDocument);
  root = full.spans;
  diagnostics.push(...yamlNumberDiagnostics(full.value, locate));
  return result(full.value);
}

function numberDiagnostic(path: string, written: string, problem: NumberProblem, range: SourceRange): Diagnostic {
  return {
    code: 'DOCUMENT_NUMBER_UNREPRESENTABLE',
    severity: 'error',
    message: `${clipToken(written)} is ${describeNumberProblem(problem)}: it would not be kept as written. Write it as a string.`,
    path,
    range,
    target: 'document',
  };
}

/**
 * YAML numbers are judged by the value the parser gave, since YAML spells numbers its own ways
 * (`.inf`, `0x…`): infinite, or integral and beyond ±(2^53−1). (Every double that large is
 * integral, so a long decimal there is refused too; an underflow to 0 cannot be seen here.)
 */
function yamlNumberDiagnostics(value: unknown, locate: ParsedDocument['locate']): Diagnostic[] {
  const out: Diagnostic[] = [];
  const stack: { value: unknown; path: PathSegment[] }[] = [{ value, path: [] }];
  while (stack.length > 0 && out.length < 20) {
    const { value: node, path } = stack.pop()!;
    if (typeof node === 'number') {
      const problem: NumberProblem | null = !Number.isFinite(node)
        ? 'not_finite'
        : Number.isInteger(node) && !Number.isSafeInteger(node)
          ? 'unsafe_integer'
          : null;
      if (problem) out.push(numberDiagnostic(formatJsonPath(path), String(node), problem, locate(path)));
    } else if (Array.isArray(node)) {
      for (let i = node.length - 1; i >= 0; i--) stack.push({ value: node[i], path: [...path, i] });
    } else if (isJsonObject(node)) {
      const keys = Object.keys(node);
      for (let i = keys.length - 1; i >= 0; i--) stack.push({ value: node[keys[i]!], path: [...path, keys[i]!] });
    }
  }
  return out;
}

function computeLineStarts(text: string): number[] {
  const starts = [0];
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) === 10) starts.push(i + 1);
  return starts;
}

function position(lineStarts: readonly number[], offset: number): { line: number; column: number } {
  let lo = 0;
  let hi = lineStarts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if ((lineStarts[mid] ?? 0) <= offset) lo = mid;
    else hi = mid - 1;
  }
  return { line: lo + 1, column: offset - (lineStarts[lo] ?? 0) + 1 };
}

/**
 * The `yaml` package's message, but in the author's terms where it speaks to its own caller:
 * a second document ended with "please use YAML.parseAllDocuments()", a function of that
 * library, which the studio's problems panel showed as if the author could call it.
 */
function yamlErrorMessage(error: { code: string; message: string }): string {
  if (error.code === 'MULTIPLE_DOCS')
    return 'The text holds more than one YAML document (a second `---`); write one document, and start another file for the next.';
  return firstLine(error.message);
}

function firstLine(message: string): string {
  return message.split('\n')[0] ?? message;
}
