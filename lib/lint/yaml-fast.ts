import type { SpanNode } from './json-syntax';
import { BAIL, bail, DASH, HASH, LineScanner, NEWLINE, SPACE, type Scanned } from './yaml-fast-scan';
import { getResolver, resolvePlainScalar, type Resolver } from './yaml-fast-scalars';

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
 *
 * This file builds the tree from lines; yaml-fast-scan.ts reads what one line holds and
 * yaml-fast-scalars.ts resolves plain scalars as the `yaml` package does.
 */

export interface FastYamlResult {
  value: unknown;
  spans: SpanNode;
}

/**
 * Text the fast path never reads: tabs and CR (indentation and line-end rules it does not
 * model), characters YAML forbids or treats as line breaks, a BOM, document markers.
 */
const UNSUPPORTED =
  /[\t\r\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u2028\u2029\ufeff\ufffe\uffff]|(?:^|\n)(?:---|\.\.\.)(?:[ \n]|$)/;

/** A node end (`range[2]`) the fast path cannot know; fatal only where a range needs it. */
const UNKNOWN = -1;

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
    this.lines = new LineScanner(text);
  }

  /** Reads what a line holds; this class decides what it means in the tree. */
  private readonly lines: LineScanner;

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
    const scanned = this.lines.scan(this.content);
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
      const rest = this.lines.scan(q);
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
      scanned = this.lines.scan(this.content);
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
      const rest = this.lines.scan(q);
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

  /** A scanned key or scalar's value. */
  private scalarValue(scanned: Scanned): unknown {
    return scanned.quoted ?? this.resolvePlain(scanned.start, scanned.end);
  }

  private resolvePlain(start: number, end: number): unknown {
    return resolvePlainScalar(this.text.slice(start, end), this.scalars);
  }
}
