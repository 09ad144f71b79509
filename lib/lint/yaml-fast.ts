import { isScalar, parseDocument as parseYaml, type ParseOptions, type ScalarTag } from 'yaml';
import type { SpanNode } from './json-syntax';

/**
 * A fast path for the YAML that people and `yaml.stringify` actually write: block mappings and
 * sequences of one-line plain or quoted scalars and empty `[]` / `{}`, with comments and blank
 * lines (all that the studio's YAML formatting writes, multi-line strings aside). The `yaml`
 * package spends most of its time building a concrete syntax tree (about 75 ms for the bench's
 * 242 KiB surface); this reads the same text in one pass.
 *
 * It must give exactly what yaml-full.ts gives (the value, and the key and value range of every
 * node), so it accepts only what it can match exactly and returns `undefined` for anything else:
 * the caller then runs the full parser, which also reports every syntax error. Never accepted
 * here: other flow collections, block scalars, multi-line scalars, anchors, aliases, tags,
 * explicit keys, directives and document markers, tabs, CR line ends, control characters,
 * duplicate keys (also keys whose string forms collide), documents past the value or depth
 * bounds, and the few comment placements that move the `yaml` package's node ends (see
 * `checkClose`). yaml-fast.test.ts fuzzes the equivalence.
 */

/** The options parse-document.ts gives the `yaml` package; scalars resolve through its schema. */
export const YAML_OPTIONS = { uniqueKeys: true, prettyErrors: false, strict: true, version: '1.2' } as const;

export interface FastYamlResult {
  value: unknown;
  spans: SpanNode;
}

const SPACE = 32;
const NEWLINE = 10;
const HASH = 35;
const COLON = 58;
const DASH = 45;
const SINGLE = 39;
const DOUBLE = 34;
const BACKSLASH = 92;
const OPEN_BRACKET = 91;
const CLOSE_BRACKET = 93;
const OPEN_BRACE = 123;
const CLOSE_BRACE = 125;

/**
 * Text the fast path never reads: tabs and CR (indentation and line-end rules it does not
 * model), characters YAML forbids or treats as line breaks, a BOM, document markers.
 */
const UNSUPPORTED = /[\t\r\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u2028\u2029\ufeff\ufffe\uffff]|(?:^|\n)(?:---|\.\.\.)(?:[ \n]|$)/;

/** Thrown (one shared instance) to leave the fast path for the full parser. */
const BAIL: unique symbol = Symbol('bail');

/** A node end (`range[2]`) the fast path cannot know; fatal only where a range needs it. */
const UNKNOWN = -1;

/**
 * The core schema's implicit scalar tags as `yaml` builds them for YAML_OPTIONS, in its order.
 * The first-character filter in `resolvePlain` is only valid for these exact tests, so any other
 * schema (a `yaml` upgrade that changes them) turns the fast path off instead of diverging.
 */
const EXPECTED_TESTS = new Set([
  '^(?:~|[Nn]ull|NULL)?$',
  '^(?:[Tt]rue|TRUE|[Ff]alse|FALSE)$',
  '^0o[0-7]+$',
  '^[-+]?[0-9]+$',
  '^0x[0-9a-fA-F]+$',
  '^(?:[-+]?\\.(?:inf|Inf|INF)|\\.nan|\\.NaN|\\.NAN)$',
  '^[-+]?(?:\\.[0-9]+|[0-9]+(?:\\.[0-9]*)?)[eE][-+]?[0-9]+$',
  '^[-+]?(?:\\.[0-9]+|[0-9]+\\.[0-9]*)$',
]);

interface Resolver {
  tags: ScalarTag[];
  options: ParseOptions;
}

let resolver: Resolver | null | undefined;

function getResolver(): Resolver | null {
  if (resolver !== undefined) return resolver;
  const probe = parseYaml('', YAML_OPTIONS);
  const tags = (probe.schema.tags as ScalarTag[]).filter((tag) => tag.default === true && tag.test);
  const keyOnly = probe.schema.tags.some((tag) => tag.default === 'key');
  const sources = tags.map((tag) => tag.test?.source ?? '');
  const known = !keyOnly && !probe.schema.compat && sources.length === EXPECTED_TESTS.size && sources.every((s) => EXPECTED_TESTS.has(s));
  resolver = known ? { tags, options: probe.options } : null;
  return resolver;
}

/**
 * Whether plain text could match one of EXPECTED_TESTS: only digits, `~`, `+`, `-` and `.` start
 * a number or null, and only `n`, `t`, `f` (any case) a null or bool of at most five letters.
 * Most keys and strings fail this at once and skip eight regular expressions.
 */
function mayBeTyped(source: string): boolean {
  const code = source.charCodeAt(0);
  if ((code >= 48 && code <= 57) || code === 126 || code === 43 || code === 45 || code === 46) return true;
  const letter = code | 0x20;
  return (letter === 110 || letter === 116 || letter === 102) && source.length <= 5;
}

/**
 * Parses `text` if it is in the supported subset, with the same value and spans as the full
 * path in parse-document.ts; `undefined` means "use the full parser".
 */
export function parseYamlFast(text: string, maxNodes: number, maxDepth: number): FastYamlResult | undefined {
  const scalars = getResolver();
  if (!scalars || UNSUPPORTED.test(text)) return undefined;
  try {
    return new FastYamlParser(text, scalars, maxNodes, maxDepth).parse();
  } catch (error) {
    if (error === BAIL) return undefined;
    throw error;
  }
}

function bail(): never {
  throw BAIL;
}

/** What one line holds from a given column on. */
interface Scanned {
  /**
   * `key` ends at `colon`; `scalar` is the rest of the line, as is `flow` (`{}`, or a flow
   * sequence of scalars on one line); `empty` is nothing or a comment.
   */
  kind: 'key' | 'scalar' | 'flow' | 'empty';
  start: number;
  /** End of the key or scalar text (trailing spaces excluded). */
  end: number;
  /** Decoded value for quoted text; undefined for plain text (resolved by the caller). */
  quoted: string | undefined;
  /** The `:` of a key. */
  colon: number;
  /** Whether a comment follows on this line. */
  comment: boolean;
  /** The items of a flow sequence. */
  items?: FlowItem[];
}

/** A scalar in a one-line flow sequence. */
interface FlowItem {
  start: number;
  end: number;
  quoted: string | undefined;
}

class FastYamlParser {
  private readonly n: number;
  private nodes = 0;
  /** The next content line (not blank, not only a comment); indent -1 at the end of the text. */
  private lineStart = 0;
  private indent = -1;
  private content = 0;
  /** Whether that line is a sequence entry (`-` then a space or the line end). */
  private entry = false;
  /** Open collections, outermost first: indent and whether it is a sequence. */
  private readonly openIndents: number[] = [];
  private readonly openSeqs: boolean[] = [];
  /** Whether a full-line comment came between the previous content line and the current one. */
  private commentsBefore = false;

  constructor(
    private readonly text: string,
    private readonly scalars: Resolver,
    private readonly maxNodes: number,
    private readonly maxDepth: number,
  ) {
    this.n = text.length;
  }

  parse(): FastYamlResult {
    this.advance(0);
    if (this.indent < 0) bail();
    const top: SpanNode = { value: [0, this.n] };
    this.count(0);
    const value = this.block(top, 0, this.indent - 1);
    if (this.indent >= 0) bail();
    return { value, spans: top };
  }

  /** Index of the line end (`\n` or the end of the text) at or after `i`. */
  private lineEnd(i: number): number {
    const at = this.text.indexOf('\n', i);
    return at < 0 ? this.n : at;
  }

  /** `range[2]` of a one-line scalar: the line, its comment and its line break. */
  private afterLine(i: number): number {
    const end = this.lineEnd(i);
    return end < this.n ? end + 1 : end;
  }

  /**
   * Moves to the next content line at or after line start `p`, skipping blank and comment
   * lines, and checks what the skipped comments do to the collections this line closes.
   */
  private advance(p: number): void {
    const text = this.text;
    const n = this.n;
    let commentIndent = -1;
    for (;;) {
      let q = p;
      while (q < n && text.charCodeAt(q) === SPACE) q++;
      if (q >= n) {
        this.lineStart = this.content = n;
        this.indent = -1;
        this.entry = false;
        break;
      }
      const c = text.charCodeAt(q);
      if (c === NEWLINE) {
        p = q + 1;
        continue;
      }
      if (c === HASH) {
        commentIndent = Math.max(commentIndent, q - p);
        p = this.afterLine(q);
        continue;
      }
      this.lineStart = p;
      this.indent = q - p;
      this.content = q;
      this.entry = c === DASH && (q + 1 >= n || text.charCodeAt(q + 1) === SPACE || text.charCodeAt(q + 1) === NEWLINE);
      break;
    }
    this.commentsBefore = commentIndent >= 0;
    if (commentIndent >= 0) this.checkClose(commentIndent);
  }

  /**
   * Full-line comments right before the line that closes collections are handed, in the `yaml`
   * package's parser, to the innermost closing collection with an indent at most theirs (which
   * then ends after them), and a comment indented past the innermost collection joins its last
   * scalar. Either moves a node end that is some collection's value end, except when only the
   * outermost closing collection keeps them: the comments are then below every other closing
   * collection's indent, and at most the innermost's.
   */
  private checkClose(commentIndent: number): void {
    const d = this.indent;
    const top = this.openIndents.length - 1;
    let closing = 0;
    for (let j = top; j >= 0; j--) {
      const c = this.openIndents[j] ?? 0;
      if (d < c || (d === c && this.openSeqs[j] === true && !this.entry)) closing++;
      else break;
    }
    if (closing === 0) return;
    if (closing === 1 ? commentIndent > (this.openIndents[top] ?? 0) : commentIndent >= (this.openIndents[top - closing + 2] ?? 0)) bail();
  }

  private count(depth: number): void {
    if (++this.nodes > this.maxNodes || depth > this.maxDepth) bail();
  }

  /**
   * A block node (already counted) starting at the current line, more indented than `parent`
   * (or a sequence at its parent mapping's indent).
   */
  private block(span: SpanNode, depth: number, parent: number): unknown {
    if (this.entry) return this.sequence(span, depth);
    const scanned = this.scan(this.content);
    if (scanned.kind === 'key') return this.mapping(span, depth, scanned);
    // A scalar on its own line must end there. Comment lines before it can lower the `yaml`
    // lexer's indentation for continuation lines to zero, so it is only taken without them.
    if (scanned.kind !== 'scalar' || depth === 0 || this.commentsBefore) bail();
    const value = this.scalarValue(scanned);
    span.value = [scanned.start, scanned.end];
    this.lastEnd = this.afterLine(scanned.end);
    this.advance(this.lastEnd);
    if (this.indent > parent) bail();
    return value;
  }

  /** `range[2]` of the node just read, which is its collection's value end if it is the last item. */
  private lastEnd = 0;

  private mapping(span: SpanNode, depth: number, first: Scanned): Record<string, unknown> {
    const text = this.text;
    const indent = this.content - this.lineStart;
    this.openIndents.push(indent);
    this.openSeqs.push(false);
    const out: Record<string, unknown> = {};
    const children = new Map<string, SpanNode>();
    span.children = children;
    const start = first.start;
    let scanned = first;
    for (;;) {
      // `yaml` refuses an implicit key whose `:` is over 1024 characters from its start.
      if (scanned.colon - scanned.start >= 1024) bail();
      const key = String(this.scalarValue(scanned));
      if (children.has(key)) bail();
      const child: SpanNode = { key: [scanned.start, scanned.end], value: [scanned.start, scanned.end] };
      children.set(key, child);
      this.count(depth + 1);
      let value: unknown;
      let q = scanned.colon + 1;
      while (q < this.n && text.charCodeAt(q) === SPACE) q++;
      const rest = this.scan(q);
      if (rest.kind === 'scalar' || rest.kind === 'flow') {
        value = this.inline(rest, child, depth + 1, indent);
      } else if (rest.kind === 'empty') {
        this.advance(this.afterLine(q));
        if (this.indent > indent || (this.indent === indent && this.entry)) {
          value = this.block(child, depth + 1, indent);
        } else {
          value = null;
          child.value = [q, q];
          // With a comment the empty value's end runs on over what follows, as far as the
          // `yaml` package's tokens say; not modelled, so it must not be a collection's end.
          this.lastEnd = rest.comment || this.commentsBefore ? UNKNOWN : q;
        }
      } else bail();
      // Defined, never assigned: an own `__proto__` key stays data instead of replacing the
      // object's prototype.
      Object.defineProperty(out, key, { value, enumerable: true, writable: true, configurable: true });
      if (this.indent !== indent || this.entry) break;
      scanned = this.scan(this.content);
      if (scanned.kind !== 'key') bail();
    }
    this.openIndents.pop();
    this.openSeqs.pop();
    if (this.indent > indent || (this.indent === indent && this.entry) || this.lastEnd === UNKNOWN) bail();
    span.value = [start, this.lastEnd];
    return out;
  }

  private sequence(span: SpanNode, depth: number): unknown[] {
    const text = this.text;
    const indent = this.indent;
    this.openIndents.push(indent);
    this.openSeqs.push(true);
    const out: unknown[] = [];
    const children: SpanNode[] = [];
    span.children = children;
    const start = this.content;
    for (;;) {
      // Comments right before an entry belong to it in the `yaml` package, and an empty
      // entry's end then runs to the end of its own line.
      const commented = this.commentsBefore;
      const dash = this.content;
      const child: SpanNode = { value: [dash, dash] };
      children.push(child);
      this.count(depth + 1);
      let q = dash + 1;
      while (q < this.n && text.charCodeAt(q) === SPACE) q++;
      const c = text.charCodeAt(q);
      if (c === DASH && (q + 1 >= this.n || text.charCodeAt(q + 1) === SPACE || text.charCodeAt(q + 1) === NEWLINE)) bail();
      const rest = this.scan(q);
      if (rest.kind === 'key') {
        // A compact mapping (`- key: value`): its keys line up with the first one.
        this.content = q;
        out.push(this.mapping(child, depth + 1, rest));
      } else if (rest.kind === 'scalar' || rest.kind === 'flow') {
        out.push(this.inline(rest, child, depth + 1, indent));
      } else {
        this.advance(this.afterLine(q));
        if (this.indent > indent) {
          out.push(this.block(child, depth + 1, indent));
        } else {
          out.push(null);
          child.value = [q, q];
          this.lastEnd = rest.comment || this.commentsBefore || commented ? UNKNOWN : q;
        }
      }
      if (this.indent !== indent || !this.entry) break;
    }
    this.openIndents.pop();
    this.openSeqs.pop();
    if (this.indent > indent || this.lastEnd === UNKNOWN) bail();
    span.value = [start, this.lastEnd];
    return out;
  }

  /**
   * A scalar or empty flow collection after `key: ` or `- ` in a collection at `indent`. It ends
   * with its line: a more indented line next would continue it (or be an error).
   */
  private inline(rest: Scanned, span: SpanNode, depth: number, indent: number): unknown {
    let value: unknown;
    if (rest.items) {
      const items: unknown[] = [];
      const children: SpanNode[] = [];
      for (const item of rest.items) {
        this.count(depth + 1);
        items.push(item.quoted ?? this.resolvePlain(item.start, item.end));
        children.push({ value: [item.start, item.end] });
      }
      value = items;
      span.children = children;
    } else if (rest.kind === 'flow') {
      value = {};
      span.children = new Map<string, SpanNode>();
    } else value = this.scalarValue(rest);
    span.value = [rest.start, rest.end];
    this.lastEnd = this.afterLine(rest.end);
    this.advance(this.lastEnd);
    if (this.indent > indent) bail();
    return value;
  }

  /**
   * Reads the line from `q` (not a space): a key (`text:` then a space or the line end), a
   * one-line scalar, an empty flow collection, or nothing. Anything else (other flow
   * collections, block scalars, anchors, tags, aliases, multi-line quotes) bails.
   */
  private scan(q: number): Scanned {
    const text = this.text;
    const n = this.n;
    if (q >= n) return { kind: 'empty', start: q, end: q, quoted: undefined, colon: -1, comment: false };
    const c = text.charCodeAt(q);
    if (c === NEWLINE) return { kind: 'empty', start: q, end: q, quoted: undefined, colon: -1, comment: false };
    if (c === HASH) return { kind: 'empty', start: q, end: q, quoted: undefined, colon: -1, comment: true };
    if (c === OPEN_BRACKET || (c === OPEN_BRACE && text.charCodeAt(q + 1) === CLOSE_BRACE)) {
      // A flow sequence of scalars, or an empty flow mapping, alone on the rest of its line.
      const items = c === OPEN_BRACKET ? this.flowSequence(q) : undefined;
      const close = items ? this.flowEnd : q + 2;
      let j = close;
      while (j < n && text.charCodeAt(j) === SPACE) j++;
      if (j < n && text.charCodeAt(j) !== NEWLINE && !(text.charCodeAt(j) === HASH && j > close)) bail();
      return { kind: 'flow', start: q, end: close, quoted: undefined, colon: -1, comment: j < n && text.charCodeAt(j) === HASH, items };
    }
    if (c === SINGLE || c === DOUBLE) {
      const [quoted, close] = c === SINGLE ? this.singleQuoted(q) : this.doubleQuoted(q);
      let j = close;
      while (j < n && text.charCodeAt(j) === SPACE) j++;
      if (j >= n || text.charCodeAt(j) === NEWLINE) return { kind: 'scalar', start: q, end: close, quoted, colon: -1, comment: false };
      const d = text.charCodeAt(j);
      if (d === HASH && j > close) return { kind: 'scalar', start: q, end: close, quoted, colon: -1, comment: true };
      if (d === COLON && (j + 1 >= n || text.charCodeAt(j + 1) === SPACE || text.charCodeAt(j + 1) === NEWLINE)) {
        return { kind: 'key', start: q, end: close, quoted, colon: j, comment: false };
      }
      bail();
    }
    if (!plainStart(c, q + 1 < n ? text.charCodeAt(q + 1) : NEWLINE)) bail();
    // Plain text runs to the line end, a ` #` comment, or a `:` followed by a space or the line end.
    let end = q + 1;
    let j = q + 1;
    for (; j < n; j++) {
      const d = text.charCodeAt(j);
      if (d === NEWLINE) break;
      if (d === SPACE) continue;
      if (d === HASH && text.charCodeAt(j - 1) === SPACE) {
        return { kind: 'scalar', start: q, end, quoted: undefined, colon: -1, comment: true };
      }
      if (d === COLON) {
        const e = j + 1 < n ? text.charCodeAt(j + 1) : NEWLINE;
        if (e === SPACE || e === NEWLINE) return { kind: 'key', start: q, end, quoted: undefined, colon: j, comment: false };
      }
      end = j + 1;
    }
    return { kind: 'scalar', start: q, end, quoted: undefined, colon: -1, comment: false };
  }

  /** A scanned key or scalar's value. */
  private scalarValue(scanned: Scanned): unknown {
    return scanned.quoted ?? this.resolvePlain(scanned.start, scanned.end);
  }

  /**
   * Plain text resolves as in the `yaml` package: the first core tag whose test matches (the
   * same for keys and in flow sequences: the core schema has no key-only tags).
   */
  private resolvePlain(start: number, end: number): unknown {
    const source = this.text.slice(start, end);
    if (!mayBeTyped(source)) return source;
    for (const tag of this.scalars.tags) {
      if (tag.test?.test(source)) {
        // Where the `yaml` package would record an error, the full parser is left to do so.
        let resolved: unknown;
        try {
          resolved = tag.resolve(source, bail, this.scalars.options);
        } catch {
          bail();
        }
        return isScalar(resolved) ? resolved.value : resolved;
      }
    }
    return source;
  }

  /** Index after the `]` of the last flow sequence read. */
  private flowEnd = 0;

  /**
   * `[a, 'b', "c"]` on one line: scalars separated by commas. Nested collections, `:` (pairs),
   * `#`, empty items and a trailing comma are left to the full parser.
   */
  private flowSequence(q: number): FlowItem[] {
    const text = this.text;
    const n = this.n;
    const items: FlowItem[] = [];
    let j = q + 1;
    for (;;) {
      while (j < n && text.charCodeAt(j) === SPACE) j++;
      let c = text.charCodeAt(j);
      if (j >= n || c === NEWLINE) bail();
      if (c === CLOSE_BRACKET && items.length === 0) {
        this.flowEnd = j + 1;
        return items;
      }
      const start = j;
      if (c === SINGLE || c === DOUBLE) {
        const [quoted, close] = c === SINGLE ? this.singleQuoted(j) : this.doubleQuoted(j);
        items.push({ start, end: close, quoted });
        j = close;
      } else {
        if (!plainStart(c, j + 1 < n ? text.charCodeAt(j + 1) : NEWLINE) || (c === DASH && FLOW_STOP[text.charCodeAt(j + 1)] === 1)) bail();
        let end = j + 1;
        for (j += 1; j < n; j++) {
          const d = text.charCodeAt(j);
          if (d === SPACE) continue;
          if (FLOW_STOP[d] === 1) break;
          end = j + 1;
        }
        items.push({ start, end, quoted: undefined });
      }
      while (j < n && text.charCodeAt(j) === SPACE) j++;
      c = text.charCodeAt(j);
      if (c === CLOSE_BRACKET) {
        this.flowEnd = j + 1;
        return items;
      }
      if (c !== COMMA) bail();
      j++;
    }
  }

  /** `'…'` on one line, `''` standing for a quote. Returns the value and the index after it. */
  private singleQuoted(q: number): [string, number] {
    const text = this.text;
    let j = q + 1;
    let value = '';
    let from = j;
    for (;;) {
      const at = text.indexOf("'", j);
      const newline = text.indexOf('\n', j);
      if (at < 0 || (newline >= 0 && newline < at)) bail();
      if (text.charCodeAt(at + 1) === SINGLE) {
        value += text.slice(from, at + 1);
        j = from = at + 2;
        continue;
      }
      value += text.slice(from, at);
      return [value, at + 1];
    }
  }

  /** `"…"` on one line with YAML's escapes. Returns the value and the index after it. */
  private doubleQuoted(q: number): [string, number] {
    const text = this.text;
    const n = this.n;
    let value = '';
    let from = q + 1;
    for (let j = q + 1; j < n; j++) {
      const c = text.charCodeAt(j);
      if (c === DOUBLE) return [value + text.slice(from, j), j + 1];
      if (c === NEWLINE) bail();
      if (c === BACKSLASH) {
        value += text.slice(from, j);
        const e = text[j + 1];
        if (e === undefined) bail();
        const simple = ESCAPES[e];
        if (simple !== undefined) {
          value += simple;
          j += 1;
        } else {
          const length = e === 'x' ? 2 : e === 'u' ? 4 : e === 'U' ? 8 : 0;
          const hex = text.slice(j + 2, j + 2 + length);
          if (length === 0 || !HEX.test(hex) || hex.length !== length) bail();
          const code = parseInt(hex, 16);
          if (code > 0x10ffff) bail();
          value += String.fromCodePoint(code);
          j += 1 + length;
        }
        from = j + 1;
      }
    }
    return bail();
  }
}

const HEX = /^[0-9a-fA-F]+$/;
const COMMA = 44;

/**
 * Characters that end plain text in a flow sequence, as far as the fast path goes: the flow
 * indicators, and (left to the full parser) `:`, `#` and the line end.
 */
const FLOW_STOP = new Uint8Array(128);
for (const ch of ',[]{}:#\n') FLOW_STOP[ch.charCodeAt(0)] = 1;

/** The `yaml` package's one-character escapes (`\` then a tab is excluded with all tabs). */
const ESCAPES: Record<string, string> = {
  '0': '\0',
  a: '\x07',
  b: '\b',
  e: '\x1b',
  f: '\f',
  n: '\n',
  r: '\r',
  t: '\t',
  v: '\v',
  N: '\u0085',
  _: '\u00a0',
  L: '\u2028',
  P: '\u2029',
  ' ': ' ',
  '"': '"',
  '/': '/',
  '\\': '\\',
};

/**
 * Whether plain text may start with `c` (followed by `next`) in block context. Indicators
 * cannot, except `-` before a non-space; `?` and `:` (also allowed there by YAML) are left to
 * the full parser.
 */
function plainStart(c: number, next: number): boolean {
  switch (c) {
    case DASH:
      return next !== SPACE && next !== NEWLINE;
    case 63: // ?
    case COLON:
    case 44: // ,
    case 91: // [
    case 93: // ]
    case 123: // {
    case 125: // }
    case HASH:
    case 38: // &
    case 42: // *
    case 33: // !
    case 124: // |
    case 62: // >
    case SINGLE:
    case DOUBLE:
    case 37: // %
    case 64: // @
    case 96: // `
      return false;
    default:
      return true;
  }
}
