/**
 * A parser for the part of JSON Schema pattern syntax whose meaning is certain, and a printer
 * that writes the same pattern back as ECMAScript source with the meaning RE2 gives it.
 *
 * Contract patterns run on RE2 (see json-schema-engine.ts). Where a pattern is simple enough to
 * be proven safe for a backtracking engine (pattern-safety.ts), it runs on V8's own `RegExp`
 * instead, several times faster. That is only sound if both engines agree on every input, so
 * this parser accepts a pattern only when every construct in it is read the same way by RE2
 * (after `toRe2Syntax`) and by this parser, and returns `null` for anything else (the pattern
 * then stays on RE2). The native source is not the author's text: it is printed from the parsed
 * tree, with every character class spelled out as code-point ranges, so constructs whose
 * meaning differs between the engines are written as RE2 means them:
 * - `.` is every code point but `\n` (RE2 without the `s` flag; ECMAScript's `.` also refuses
 *   `\r`, U+2028 and U+2029);
 * - `\d` and `\w` are ASCII in both; `\s` differs (RE2: `[\t\n\f\r ]`; ECMAScript: every Unicode
 *   space), so it is not accepted;
 * - classes and escapes match code points, astral ones included; lone surrogates in the input
 *   are single code points in both (`u` flag; re2js steps UTF-16 the same way).
 * Not accepted (RE2 keeps them): `\s \S \b \B`, Unicode properties, backreferences, lookaround,
 * named groups and inline flags, RE2-only syntax (`\x{..}`, `\A`, `\z`, `\Q`, `[[:alpha:]]`),
 * an escape of a surrogate, a `]` first in a class, `-` anywhere but a class's ends or a plain
 * range, `{` that is not a repetition, and patterns over 1,000 code points.
 */

/** Code points as sorted, disjoint, non-adjacent inclusive ranges: [lo0, hi0, lo1, hi1, ...]. */
export type CodePoints = readonly number[];

export type PatternNode =
  | { type: 'chars'; set: CodePoints }
  | { type: 'start' }
  | { type: 'end' }
  | { type: 'sequence'; items: PatternNode[] }
  | { type: 'alternation'; branches: PatternNode[] }
  | { type: 'repeat'; body: PatternNode; min: number; max: number; lazy: boolean };

const MAX_CODE_POINT = 0x10ffff;
const MAX_PATTERN_CODE_POINTS = 1000;
/** RE2 refuses larger counts, so a pattern with one never gets here; kept as a guard. */
const MAX_REPEAT = 1000;

export function normalizeSet(ranges: readonly number[]): CodePoints {
  const pairs: [number, number][] = [];
  for (let i = 0; i < ranges.length; i += 2) pairs.push([ranges[i]!, ranges[i + 1]!]);
  pairs.sort((a, b) => a[0] - b[0]);
  const out: number[] = [];
  for (const [lo, hi] of pairs) {
    if (out.length > 0 && lo <= out[out.length - 1]! + 1) out[out.length - 1] = Math.max(out[out.length - 1]!, hi);
    else out.push(lo, hi);
  }
  return out;
}

export function complementSet(set: CodePoints): CodePoints {
  const out: number[] = [];
  let next = 0;
  for (let i = 0; i < set.length; i += 2) {
    if (set[i]! > next) out.push(next, set[i]! - 1);
    next = set[i + 1]! + 1;
  }
  if (next <= MAX_CODE_POINT) out.push(next, MAX_CODE_POINT);
  return out;
}

export function setsIntersect(a: CodePoints, b: CodePoints): boolean {
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    if (a[i + 1]! < b[j]!) i += 2;
    else if (b[j + 1]! < a[i]!) j += 2;
    else return true;
  }
  return false;
}

const DIGIT: CodePoints = [0x30, 0x39];
const WORD: CodePoints = normalizeSet([0x30, 0x39, 0x41, 0x5a, 0x5f, 0x5f, 0x61, 0x7a]);
const CLASS_ESCAPES: Record<string, CodePoints> = {
  d: DIGIT,
  D: complementSet(DIGIT),
  w: WORD,
  W: complementSet(WORD),
};
const CONTROL_ESCAPES: Record<string, number> = { t: 0x09, n: 0x0a, v: 0x0b, f: 0x0c, r: 0x0d };
/** Escaped, these are themselves in both engines (ECMAScript's `u` mode allows no others outside a class). */
const SYNTAX_CHARACTERS = new Set('^$\\.*+?()[]{}|/');
/** Unescaped, these are syntax, or (`{`, `}`, `]`) a literal in RE2 and an error in ECMAScript. */
const NOT_LITERAL = new Set('^$\\.*+?()[]{}|');
const isSurrogate = (cp: number) => cp >= 0xd800 && cp <= 0xdfff;

class Unsupported extends Error {}

class Parser {
  private i = 0;
  constructor(private readonly cps: readonly number[]) {}

  private peek(offset = 0): string | undefined {
    const cp = this.cps[this.i + offset];
    return cp === undefined ? undefined : String.fromCodePoint(cp);
  }

  private fail(): never {
    throw new Unsupported();
  }

  parsePattern(): PatternNode {
    const node = this.parseAlternation();
    if (this.i < this.cps.length) this.fail();
    return node;
  }

  private parseAlternation(): PatternNode {
    const branches = [this.parseSequence()];
    while (this.peek() === '|') {
      this.i += 1;
      branches.push(this.parseSequence());
    }
    return branches.length === 1 ? branches[0]! : { type: 'alternation', branches };
  }

  private parseSequence(): PatternNode {
    const items: PatternNode[] = [];
    for (let c = this.peek(); c !== undefined && c !== '|' && c !== ')'; c = this.peek()) {
      if (c === '^' || c === '$') {
        this.i += 1;
        items.push({ type: c === '^' ? 'start' : 'end' });
        if (this.isQuantifierAhead()) this.fail();
        continue;
      }
      items.push(this.parseQuantified(this.parseAtom()));
    }
    return items.length === 1 ? items[0]! : { type: 'sequence', items };
  }

  private isQuantifierAhead(): boolean {
    const c = this.peek();
    return c === '*' || c === '+' || c === '?' || c === '{';
  }

  private parseAtom(): PatternNode {
    const c = this.peek();
    if (c === undefined) this.fail();
    if (c === '(') {
      this.i += 1;
      // Only plain and non-capturing groups; captures mean nothing to a yes/no match.
      if (this.peek() === '?') {
        if (this.peek(1) !== ':') this.fail();
        this.i += 2;
      }
      const body = this.parseAlternation();
      if (this.peek() !== ')') this.fail();
      this.i += 1;
      return body;
    }
    if (c === '[') return { type: 'chars', set: this.parseClass() };
    if (c === '.') {
      this.i += 1;
      return { type: 'chars', set: complementSet([0x0a, 0x0a]) };
    }
    if (c === '\\') {
      this.i += 1;
      const escaped = this.parseEscape(false);
      return { type: 'chars', set: typeof escaped === 'number' ? [escaped, escaped] : escaped };
    }
    if (NOT_LITERAL.has(c)) this.fail();
    const cp = this.cps[this.i++]!;
    return { type: 'chars', set: [cp, cp] };
  }

  private parseQuantified(atom: PatternNode): PatternNode {
    const c = this.peek();
    let min: number;
    let max: number;
    if (c === '*' || c === '+' || c === '?') {
      this.i += 1;
      [min, max] = c === '*' ? [0, Infinity] : c === '+' ? [1, Infinity] : [0, 1];
    } else if (c === '{') {
      const rest = String.fromCodePoint(...this.cps.slice(this.i, this.i + 12));
      const counted = /^\{(\d{1,4})(,(\d{0,4}))?\}/.exec(rest);
      if (!counted) this.fail();
      this.i += counted[0].length;
      min = Number(counted[1]);
      max = counted[2] === undefined ? min : counted[3] === '' ? Infinity : Number(counted[3]);
      if (min > max || min > MAX_REPEAT || (max !== Infinity && max > MAX_REPEAT)) this.fail();
    } else {
      return atom;
    }
    const lazy = this.peek() === '?';
    if (lazy) this.i += 1;
    if (this.isQuantifierAhead()) this.fail();
    return { type: 'repeat', body: atom, min, max, lazy };
  }

  /** After a backslash. Returns one code point or, for `\d \D \w \W`, a set. */
  private parseEscape(inClass: boolean): number | CodePoints {
    const c = this.peek();
    if (c === undefined) this.fail();
    this.i += 1;
    const set = CLASS_ESCAPES[c];
    if (set) return set;
    const control = CONTROL_ESCAPES[c];
    if (control !== undefined) return control;
    if (SYNTAX_CHARACTERS.has(c) || (inClass && c === '-')) return c.codePointAt(0)!;
    if (c === 'x') return this.hexDigits(/^[0-9a-fA-F]{2}/);
    if (c === 'u') {
      // The same reading as toRe2Syntax, which hands RE2 `\x{...}` for exactly these forms.
      const braced = this.tryHex(/^\{([0-9a-fA-F]{1,6})\}/);
      return braced ?? this.hexDigits(/^[0-9a-fA-F]{4}/);
    }
    return this.fail();
  }

  private tryHex(form: RegExp): number | undefined {
    const rest = String.fromCodePoint(...this.cps.slice(this.i, this.i + 8));
    const match = form.exec(rest);
    if (!match) return undefined;
    const cp = parseInt(match[1] ?? match[0], 16);
    if (cp > MAX_CODE_POINT || isSurrogate(cp)) this.fail();
    this.i += match[0].length;
    return cp;
  }

  private hexDigits(form: RegExp): number {
    return this.tryHex(form) ?? this.fail();
  }

  private parseClass(): CodePoints {
    this.i += 1;
    const negated = this.peek() === '^';
    if (negated) this.i += 1;
    // RE2 reads a leading `]` as a literal, ECMAScript as the end of an empty class.
    if (this.peek() === ']') this.fail();
    const ranges: number[] = [];
    let first = true;
    for (;;) {
      const c = this.peek();
      if (c === undefined || c === '[') this.fail();
      if (c === ']') break;
      if (c === '-') {
        // A bare `-` only at either end of the class, never as a range end.
        if (!first && this.peek(1) !== ']') this.fail();
        if (first && this.peek(1) === '-') this.fail();
        this.i += 1;
        ranges.push(0x2d, 0x2d);
        first = false;
        continue;
      }
      const low = this.parseClassAtom();
      first = false;
      if (typeof low !== 'number') {
        if (this.peek() === '-' && this.peek(1) !== ']') this.fail();
        ranges.push(...low);
        continue;
      }
      if (this.peek() === '-' && this.peek(1) !== ']') {
        this.i += 1;
        if (this.peek() === '-') this.fail();
        const high = this.parseClassAtom();
        if (typeof high !== 'number' || high < low) this.fail();
        if (this.peek() === '-' && this.peek(1) !== ']') this.fail();
        ranges.push(low, high);
        continue;
      }
      ranges.push(low, low);
    }
    this.i += 1;
    const set = normalizeSet(ranges);
    return negated ? complementSet(set) : set;
  }

  private parseClassAtom(): number | CodePoints {
    const c = this.peek();
    if (c === '\\') {
      this.i += 1;
      return this.parseEscape(true);
    }
    return this.cps[this.i++]!;
  }
}

/** The pattern's tree, or `null` when it uses anything outside the subset described above. */
export function parsePattern(pattern: string): PatternNode | null {
  const cps = Array.from(pattern, (char) => char.codePointAt(0)!);
  if (cps.length > MAX_PATTERN_CODE_POINTS || cps.some(isSurrogate)) return null;
  try {
    return new Parser(cps).parsePattern();
  } catch (error) {
    if (error instanceof Unsupported) return null;
    throw error;
  }
}

const LITERAL_SAFE = /^[0-9A-Za-z_]$/;

function codePointSource(cp: number): string {
  const char = String.fromCodePoint(cp);
  return LITERAL_SAFE.test(char) ? char : `\\u{${cp.toString(16)}}`;
}

function setSource(set: CodePoints): string {
  if (set.length === 2 && set[0] === set[1]) return codePointSource(set[0]!);
  let out = '[';
  for (let i = 0; i < set.length; i += 2) {
    const lo = set[i]!;
    const hi = set[i + 1]!;
    out += lo === hi ? codePointSource(lo) : `${codePointSource(lo)}-${codePointSource(hi)}`;
  }
  return `${out}]`;
}

function quantifierSource(min: number, max: number): string {
  if (max === Infinity) return min === 0 ? '*' : min === 1 ? '+' : `{${min},}`;
  if (min === 0 && max === 1) return '?';
  return min === max ? `{${min}}` : `{${min},${max}}`;
}

/**
 * ECMAScript source (for the `u` flag) that matches exactly what RE2 matches for the parsed
 * pattern. Groups are printed non-capturing: nothing reads captures.
 */
export function toNativeSource(node: PatternNode): string {
  switch (node.type) {
    case 'chars':
      return setSource(node.set);
    case 'start':
      return '^';
    case 'end':
      return '$';
    case 'sequence':
      return node.items.map((item) => (item.type === 'alternation' ? `(?:${toNativeSource(item)})` : toNativeSource(item))).join('');
    case 'alternation':
      return node.branches.map(toNativeSource).join('|');
    case 'repeat': {
      const body = node.body.type === 'chars' ? toNativeSource(node.body) : `(?:${toNativeSource(node.body)})`;
      return body + quantifierSource(node.min, node.max) + (node.lazy ? '?' : '');
    }
  }
}
