/**
 * The fast path's line scanner: what one line of YAML holds from a given column on (a key, a
 * one-line scalar, a one-line flow sequence or `{}`, or nothing), with quoted scalars decoded.
 * Anything outside the subset yaml-fast.ts reads throws BAIL.
 */

export const SPACE = 32;
export const NEWLINE = 10;
export const HASH = 35;
const COLON = 58;
export const DASH = 45;
const SINGLE = 39;
const DOUBLE = 34;
const BACKSLASH = 92;
const OPEN_BRACKET = 91;
const CLOSE_BRACKET = 93;
const OPEN_BRACE = 123;
const CLOSE_BRACE = 125;

/** Thrown (one shared instance) to leave the fast path for the full parser. */
export const BAIL: unique symbol = Symbol('bail');

export function bail(): never {
  throw BAIL;
}

/** What one line holds from a given column on. */
export interface Scanned {
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

export class LineScanner {
  private readonly n: number;

  constructor(private readonly text: string) {
    this.n = text.length;
  }

  /**
   * Reads the line from `q` (not a space): a key (`text:` then a space or the line end), a
   * one-line scalar, an empty flow collection, or nothing. Anything else (other flow
   * collections, block scalars, anchors, tags, aliases, multi-line quotes) bails.
   */
  scan(q: number): Scanned {
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
