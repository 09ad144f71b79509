/**
 * Makes invisible and direction-changing characters visible, so what an approver reads is what
 * the agent sent: `"\u202Eevil"` renders as `<U+202E>evil`, not as `live` drawn right to left.
 * Browser-safe (no Node imports): the approval card renders with it and the server uses it too.
 *
 * What counts as hidden (after GitHub's hidden-Unicode warning and VS Code's invisible
 * characters): bidirectional controls, zero-width characters, every other format character
 * (general category Cf, e.g. soft hyphen and the tag characters used to smuggle text to
 * models), control characters other than tab and line breaks, lone surrogates, spaces other
 * than U+0020, line/paragraph separators, variation selectors that do not follow a visible
 * character (a chain of them encodes bytes), fillers that draw nothing, and unassigned code
 * points (whose rendering nobody can predict).
 */

export type HiddenCharacterKind = 'bidi' | 'zero_width' | 'format' | 'control' | 'space' | 'lone_surrogate' | 'invisible';

export interface HiddenCharacter {
  codePoint: number;
  /** `U+202E`; what the badge shows. */
  label: string;
  /** A short name for the common ones (the badge's title), else the kind in words. */
  name: string;
  kind: HiddenCharacterKind;
}

/** Plain text, or a run of one hidden character repeated `count` times. */
export type RevealedSegment = { text: string } | { hidden: HiddenCharacter; count: number };

export interface RevealedText {
  segments: RevealedSegment[];
  /** Hidden characters in the whole input, also past the shown part. */
  hiddenCount: number;
  /** The kinds found, in a stable order. */
  kinds: HiddenCharacterKind[];
  /** The input was longer than the segments show (see the limits below). */
  truncated: boolean;
}

/** Code units shown at most; the arguments an approver sees are at most 64 KiB anyway. */
export const MAX_REVEALED_LENGTH = 100_000;
/** Hidden runs shown at most: each is a badge in the page, so this bounds the DOM. */
export const MAX_HIDDEN_RUNS = 2_000;

const NAMES: Record<number, string> = {
  0x061c: 'ARABIC LETTER MARK',
  0x200e: 'LEFT-TO-RIGHT MARK',
  0x200f: 'RIGHT-TO-LEFT MARK',
  0x202a: 'LEFT-TO-RIGHT EMBEDDING',
  0x202b: 'RIGHT-TO-LEFT EMBEDDING',
  0x202c: 'POP DIRECTIONAL FORMATTING',
  0x202d: 'LEFT-TO-RIGHT OVERRIDE',
  0x202e: 'RIGHT-TO-LEFT OVERRIDE',
  0x2066: 'LEFT-TO-RIGHT ISOLATE',
  0x2067: 'RIGHT-TO-LEFT ISOLATE',
  0x2068: 'FIRST STRONG ISOLATE',
  0x2069: 'POP DIRECTIONAL ISOLATE',
  0x200b: 'ZERO WIDTH SPACE',
  0x200c: 'ZERO WIDTH NON-JOINER',
  0x200d: 'ZERO WIDTH JOINER',
  0x2060: 'WORD JOINER',
  0xfeff: 'ZERO WIDTH NO-BREAK SPACE (BOM)',
  0x00ad: 'SOFT HYPHEN',
  0x00a0: 'NO-BREAK SPACE',
  0x2028: 'LINE SEPARATOR',
  0x2029: 'PARAGRAPH SEPARATOR',
  0x034f: 'COMBINING GRAPHEME JOINER',
  0x180e: 'MONGOLIAN VOWEL SEPARATOR',
  0x3164: 'HANGUL FILLER',
};

const KIND_WORDS: Record<HiddenCharacterKind, string> = {
  bidi: 'bidirectional control',
  zero_width: 'zero-width character',
  format: 'invisible format character',
  control: 'control character',
  space: 'non-standard space',
  lone_surrogate: 'lone surrogate (not a character)',
  invisible: 'invisible character',
};
const KIND_ORDER: HiddenCharacterKind[] = ['bidi', 'zero_width', 'format', 'control', 'space', 'lone_surrogate', 'invisible'];

const BIDI = new Set([0x061c, 0x200e, 0x200f, 0x202a, 0x202b, 0x202c, 0x202d, 0x202e, 0x2066, 0x2067, 0x2068, 0x2069]);
const ZERO_WIDTH = new Set([0x200b, 0x200c, 0x200d, 0x2060, 0xfeff]);
const FILLERS = new Set([0x034f, 0x115f, 0x1160, 0x17b4, 0x17b5, 0x2800, 0x3164, 0xffa0]);
const FORMAT = /^\p{Cf}$/u;
const CONTROL = /^\p{Cc}$/u;
const SPACE = /^[\p{Zs}\p{Zl}\p{Zp}]$/u;
const UNASSIGNED = /^\p{Cn}$/u;

function isVariationSelector(cp: number): boolean {
  return (cp >= 0xfe00 && cp <= 0xfe0f) || (cp >= 0xe0100 && cp <= 0xe01ef);
}

/**
 * Whether a code point is hidden, and how. `previous` is the code point before it: VS15/VS16
 * (U+FE0E/U+FE0F) right after a visible non-ASCII character choose text or emoji presentation
 * (❤️) and are left alone; anywhere else, and every other variation selector, they are flagged.
 */
export function classifyCodePoint(cp: number, previous: number | null = null): HiddenCharacterKind | null {
  if (cp < 0x7f) return cp < 0x20 && cp !== 0x09 && cp !== 0x0a && cp !== 0x0d ? 'control' : null;
  if (BIDI.has(cp)) return 'bidi';
  if (ZERO_WIDTH.has(cp)) return 'zero_width';
  if (cp >= 0xd800 && cp <= 0xdfff) return 'lone_surrogate';
  if (isVariationSelector(cp)) {
    const presentation = cp === 0xfe0e || cp === 0xfe0f;
    return presentation && previous !== null && previous >= 0x80 && classifyCodePoint(previous) === null ? null : 'invisible';
  }
  const char = String.fromCodePoint(cp);
  if (FORMAT.test(char)) return 'format';
  if (CONTROL.test(char)) return 'control';
  if (SPACE.test(char)) return 'space';
  if (FILLERS.has(cp) || UNASSIGNED.test(char)) return 'invisible';
  return null;
}

/** `U+202E`, `U+E0041`. */
export function formatCodePoint(cp: number): string {
  return `U+${cp.toString(16).toUpperCase().padStart(4, '0')}`;
}

export function describeHiddenCharacter(cp: number, kind: HiddenCharacterKind): HiddenCharacter {
  return { codePoint: cp, label: formatCodePoint(cp), name: NAMES[cp] ?? KIND_WORDS[kind], kind };
}

/** In words, for the card's warning: "bidirectional control". */
export function hiddenKindWords(kind: HiddenCharacterKind): string {
  return KIND_WORDS[kind];
}

/**
 * Walks a string by code point (a well-formed surrogate pair is one character, a lone half is
 * its own hidden character). Calls `visit` with each code point, its previous one and where
 * it starts; stops early when `visit` answers false.
 */
function walk(text: string, visit: (cp: number, previous: number | null, index: number, width: number) => boolean): void {
  let previous: number | null = null;
  for (let i = 0; i < text.length;) {
    const cp = text.codePointAt(i) as number;
    const width = cp > 0xffff ? 2 : 1;
    if (!visit(cp, previous, i, width)) return;
    previous = cp;
    i += width;
  }
}

/** How many hidden characters a text has, and of which kinds (for the card's warning). */
export function summarizeHiddenCharacters(text: string): { count: number; kinds: HiddenCharacterKind[] } {
  let count = 0;
  const kinds = new Set<HiddenCharacterKind>();
  walk(text, (cp, previous) => {
    const kind = classifyCodePoint(cp, previous);
    if (kind !== null) {
      count++;
      kinds.add(kind);
    }
    return true;
  });
  return { count, kinds: KIND_ORDER.filter((k) => kinds.has(k)) };
}

export function countHiddenCharacters(text: string): number {
  return summarizeHiddenCharacters(text).count;
}

/**
 * Splits text into plain runs and hidden characters, collapsing a run of the same hidden
 * character into one segment (so 10,000 zero-width spaces are one badge). Bounded: at most
 * `maxLength` code units and `maxHiddenRuns` hidden runs are turned into segments; the rest is
 * cut, never shown unrevealed, and `truncated` says so.
 */
export function revealHiddenCharacters(text: string, options: { maxLength?: number; maxHiddenRuns?: number } = {}): RevealedText {
  const maxLength = options.maxLength ?? MAX_REVEALED_LENGTH;
  const maxRuns = options.maxHiddenRuns ?? MAX_HIDDEN_RUNS;
  const segments: RevealedSegment[] = [];
  const kinds = new Set<HiddenCharacterKind>();
  let plainStart = 0;
  let runs = 0;
  let hiddenCount = 0;
  let stoppedAt: number | null = null;

  walk(text, (cp, previous, index, width) => {
    if (index + width > maxLength) {
      stoppedAt = index;
      return false;
    }
    const kind = classifyCodePoint(cp, previous);
    if (kind === null) return true;
    const last = segments[segments.length - 1];
    if (plainStart === index && last && 'hidden' in last && last.hidden.codePoint === cp) {
      last.count++;
    } else {
      if (runs === maxRuns) {
        stoppedAt = index;
        return false;
      }
      if (index > plainStart) segments.push({ text: text.slice(plainStart, index) });
      segments.push({ hidden: describeHiddenCharacter(cp, kind), count: 1 });
      runs++;
    }
    kinds.add(kind);
    hiddenCount++;
    plainStart = index + width;
    return true;
  });

  const end: number = stoppedAt ?? text.length;
  if (end > plainStart) segments.push({ text: text.slice(plainStart, end) });
  if (stoppedAt !== null) {
    const rest = summarizeHiddenCharacters(text.slice(stoppedAt));
    hiddenCount += rest.count;
    for (const kind of rest.kinds) kinds.add(kind);
  }
  return { segments, hiddenCount, kinds: KIND_ORDER.filter((k) => kinds.has(k)), truncated: stoppedAt !== null };
}

/**
 * JSON text with every hidden character inside its strings written as a `\uXXXX` escape (a
 * pair of escapes past U+FFFF), so the edit form shows them and parsing the text gives back
 * exactly the same value. Only valid for text JSON.stringify produced, where such characters
 * occur inside strings only.
 */
export function escapeHiddenCharacters(jsonText: string): string {
  let out = '';
  let plainStart = 0;
  walk(jsonText, (cp, previous, index, width) => {
    if (classifyCodePoint(cp, previous) === null || cp < 0x20) return true;
    out += jsonText.slice(plainStart, index);
    for (let i = index; i < index + width; i++) out += `\\u${jsonText.charCodeAt(i).toString(16).padStart(4, '0')}`;
    plainStart = index + width;
    return true;
  });
  return out + jsonText.slice(plainStart);
}
