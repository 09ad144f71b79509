import { parseDocument, type ParsedDocument, type PathSegment } from '../lint/parse-document';
import type { DocumentFormat, SourceRange } from '../lint/types';
import { ownValue } from '../validation/json-path';

/**
 * Small edits to a document's text that keep the author's formatting: the place, indentation
 * and notation (JSON, YAML block or flow) of what is already there decide how an inserted
 * member or a removed item is written. Plain string work over the parser's ranges; every edit
 * is checked by parsing the result in the tests.
 */

/** Replace `range` (1-based, end exclusive: Monaco's convention) with `text`. */
export interface TextEdit {
  range: SourceRange;
  text: string;
}

/** A value to write: an empty schema `{}`, or an object with one member. */
export type Snippet = { type: 'empty' } | { type: 'member'; key: string; value: Snippet };

export const EMPTY: Snippet = { type: 'empty' };

export class EditableDocument {
  readonly parsed: ParsedDocument;
  private readonly lineStarts: number[];

  constructor(
    readonly text: string,
    readonly format: DocumentFormat,
  ) {
    this.parsed = parseDocument(text, format);
    this.lineStarts = [0];
    for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) === 10) this.lineStarts.push(i + 1);
  }

  get value(): unknown {
    return this.parsed.value;
  }

  valueAt(path: readonly PathSegment[]): unknown {
    let current = this.parsed.value;
    for (const segment of path) {
      current = Array.isArray(current) && typeof segment === 'number' ? (current[segment] as unknown) : ownValue(current, String(segment));
      if (current === undefined) return undefined;
    }
    return current;
  }

  /** Character offsets `[start, end)` of a path's value (or key). */
  span(path: readonly PathSegment[], part: 'key' | 'value' = 'value'): [number, number] {
    const range = this.parsed.locate(path, part);
    return [this.offset(range.startLine, range.startColumn), this.offset(range.endLine, range.endColumn)];
  }

  offset(line: number, column: number): number {
    return (this.lineStarts[line - 1] ?? this.text.length) + column - 1;
  }

  range(start: number, end: number): SourceRange {
    return this.parsed.rangeOfOffsets(start, end);
  }

  edit(start: number, end: number, text: string): TextEdit {
    return { range: this.range(start, end), text };
  }

  lineStartOf(offset: number): number {
    return this.text.lastIndexOf('\n', offset - 1) + 1;
  }

  lineEndOf(offset: number): number {
    const end = this.text.indexOf('\n', offset);
    return end < 0 ? this.text.length : end;
  }

  /** The whitespace a line starts with. */
  indentOf(offset: number): string {
    const start = this.lineStartOf(offset);
    return /^[ \t]*/.exec(this.text.slice(start))![0];
  }

  /** The document's indentation step: the smallest indentation any line has, else two spaces. */
  indentUnit(): string {
    let unit = Infinity;
    for (const start of this.lineStarts) {
      const indent = /^ */.exec(this.text.slice(start, start + 16))![0].length;
      if (indent > 0 && indent < unit && this.text[start + indent] !== '\n') unit = indent;
    }
    return ' '.repeat(Number.isFinite(unit) ? unit : 2);
  }
}

const PLAIN_YAML_KEY = /^[A-Za-z_$][\w.$-]*$/;

function yamlKey(key: string): string {
  return PLAIN_YAML_KEY.test(key) && !['true', 'false', 'null', 'yes', 'no', 'on', 'off', '~'].includes(key.toLowerCase())
    ? key
    : JSON.stringify(key);
}

function keyText(format: DocumentFormat, key: string): string {
  return format === 'json' ? JSON.stringify(key) : yamlKey(key);
}

/** `value` written inline: `{}` or `{ "k": {} }` (YAML: `{ k: {} }`). */
function inlineValue(format: DocumentFormat, value: Snippet): string {
  if (value.type === 'empty') return '{}';
  return `{ ${keyText(format, value.key)}: ${inlineValue(format, value.value)} }`;
}

/** `value` written over lines, as the member it belongs to sits at `indent`. */
function blockValue(doc: EditableDocument, value: Snippet, indent: string): string {
  if (value.type === 'empty') return '{}';
  const inner = indent + doc.indentUnit();
  if (doc.format === 'json') return `{\n${inner}${keyText('json', value.key)}: ${blockValue(doc, value.value, inner)}\n${indent}}`;
  const nested = value.value.type === 'empty' ? ' {}' : blockValue(doc, value.value, inner);
  return `\n${inner}${yamlKey(value.key)}:${nested}`;
}

/** A YAML block member `key: value` at `indent` (the value may continue on the lines below). */
function yamlBlockMember(doc: EditableDocument, key: string, value: Snippet, indent: string): string {
  return value.type === 'empty' ? `${yamlKey(key)}: {}` : `${yamlKey(key)}:${blockValue(doc, value, indent)}`;
}

/**
 * Adds the member `key: value` to the object at `objectPath`, after its last member, written as
 * its neighbours are. Undefined when there is no object there.
 */
export function insertMember(doc: EditableDocument, objectPath: readonly PathSegment[], key: string, value: Snippet): TextEdit | undefined {
  const object = doc.valueAt(objectPath);
  if (typeof object !== 'object' || object === null || Array.isArray(object)) return undefined;
  const keys = Object.keys(object);
  const [start, end] = doc.span(objectPath);
  const flow = doc.text[start] === '{';
  const last = keys[keys.length - 1];

  if (last === undefined) {
    if (!flow) return undefined;
    // `{}` on a line of its own (or after its key) opens over lines in JSON, as a formatter
    // writes it; in YAML, or inside other inline JSON, it stays inline.
    const before = doc.text.slice(doc.lineStartOf(start), start).trim();
    if (doc.format === 'yaml' || !(before === '' || /^"(?:[^"\\]|\\.)*"\s*:$/.test(before)))
      return doc.edit(start, end, inlineValue(doc.format, { type: 'member', key, value }));
    const indent = doc.indentOf(start);
    const inner = indent + doc.indentUnit();
    return doc.edit(start, end, `{\n${inner}${keyText('json', key)}: ${blockValue(doc, value, inner)}\n${indent}}`);
  }

  const [keyStart] = doc.span([...objectPath, last], 'key');
  const [, valueEnd] = doc.span([...objectPath, last]);
  const beforeKey = doc.text.slice(doc.lineStartOf(keyStart), keyStart);
  if (flow) {
    if (beforeKey.trim() !== '') return doc.edit(valueEnd, valueEnd, `, ${keyText(doc.format, key)}: ${inlineValue(doc.format, value)}`);
    const indent = beforeKey;
    const written = doc.format === 'json' ? blockValue(doc, value, indent) : inlineValue('yaml', value);
    return doc.edit(valueEnd, valueEnd, `,\n${indent}${keyText(doc.format, key)}: ${written}`);
  }
  // A YAML block mapping: a new line at the column of its keys, after the last member's value
  // (which, when it is a nested block, already ends at the start of the next line).
  const indent = ' '.repeat(keyStart - doc.lineStartOf(keyStart));
  const member = yamlBlockMember(doc, key, value, indent);
  if (valueEnd === doc.lineStartOf(valueEnd) && valueEnd > 0) return doc.edit(valueEnd, valueEnd, `${indent}${member}\n`);
  const at = doc.lineEndOf(valueEnd);
  return doc.edit(at, at, `\n${indent}${member}`);
}

/**
 * Declares `key` in the object at `objectPath`, creating the path's missing tail (`properties`
 * in a schema that has none) inside its nearest existing object.
 */
export function declareMember(
  doc: EditableDocument,
  objectPath: readonly PathSegment[],
  key: string,
  value: Snippet,
): TextEdit | undefined {
  let existing = objectPath.length;
  while (existing > 0 && doc.valueAt(objectPath.slice(0, existing)) === undefined) existing--;
  let snippet: Snippet = { type: 'member', key, value };
  for (let i = objectPath.length - 1; i >= existing; i--) snippet = { type: 'member', key: String(objectPath[i]), value: snippet };
  if (snippet.type !== 'member') return undefined;
  return insertMember(doc, objectPath.slice(0, existing), snippet.key, snippet.value);
}

/** Removes item `index` of the array at `arrayPath` with its separator. */
export function removeItem(doc: EditableDocument, arrayPath: readonly PathSegment[], index: number): TextEdit | undefined {
  const array = doc.valueAt(arrayPath);
  if (!Array.isArray(array) || index < 0 || index >= array.length) return undefined;
  const [start, end] = doc.span(arrayPath);
  if (doc.text[start] === '[') {
    if (array.length === 1) return doc.edit(start, end, '[]');
    const [itemStart, itemEnd] = doc.span([...arrayPath, index]);
    if (index > 0) return doc.edit(doc.span([...arrayPath, index - 1])[1], itemEnd, '');
    return doc.edit(itemStart, doc.span([...arrayPath, 1])[0], '');
  }
  // A YAML block sequence: the item's whole lines.
  if (array.length === 1) return doc.edit(start, end, `[]${doc.text[end - 1] === '\n' ? '\n' : ''}`);
  const [itemStart, itemEnd] = doc.span([...arrayPath, index]);
  const from = doc.lineStartOf(itemStart);
  const to = itemEnd === doc.lineStartOf(itemEnd) ? itemEnd : Math.min(doc.text.length, doc.lineEndOf(itemEnd) + 1);
  return to === doc.text.length && from > 0 && doc.text[to - 1] !== '\n' ? doc.edit(from - 1, to, '') : doc.edit(from, to, '');
}

/** Replaces a scalar's text. */
export function replaceValue(doc: EditableDocument, path: readonly PathSegment[], text: string): TextEdit {
  const [start, end] = doc.span(path);
  return doc.edit(start, end, text);
}

/** The text of a value as written. */
export function valueText(doc: EditableDocument, path: readonly PathSegment[]): string {
  const [start, end] = doc.span(path);
  return doc.text.slice(start, end);
}

/** Applies non-overlapping edits to `text` (for tests and previews). */
export function applyEdits(text: string, edits: readonly TextEdit[]): string {
  const lines = [0];
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) === 10) lines.push(i + 1);
  const at = (line: number, column: number) => (lines[line - 1] ?? text.length) + column - 1;
  const sorted = edits
    .map((e) => ({ start: at(e.range.startLine, e.range.startColumn), end: at(e.range.endLine, e.range.endColumn), text: e.text }))
    .sort((a, b) => b.start - a.start);
  let out = text;
  for (const e of sorted) out = out.slice(0, e.start) + e.text + out.slice(e.end);
  return out;
}
