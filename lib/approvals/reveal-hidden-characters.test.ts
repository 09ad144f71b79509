import { describe, expect, it } from 'vitest';
import {
  classifyCodePoint,
  countHiddenCharacters,
  escapeHiddenCharacters,
  formatCodePoint,
  revealHiddenCharacters,
  summarizeHiddenCharacters,
  type RevealedSegment,
} from './reveal-hidden-characters';

/** The segments as the card draws them: hidden runs as `<U+XXXX>` (×n when repeated). */
function drawn(segments: RevealedSegment[]): string {
  return segments.map((s) => ('text' in s ? s.text : `<${s.hidden.label}>${s.count > 1 ? `×${s.count}` : ''}`)).join('');
}

const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);

describe('classifyCodePoint', () => {
  it('flags every bidirectional control', () => {
    for (const cp of [...range(0x202a, 0x202e), ...range(0x2066, 0x2069), 0x200e, 0x200f, 0x061c])
      expect(classifyCodePoint(cp), formatCodePoint(cp)).toBe('bidi');
  });

  it('flags every zero-width character', () => {
    for (const cp of [...range(0x200b, 0x200d), 0x2060, 0xfeff]) expect(classifyCodePoint(cp), formatCodePoint(cp)).toBe('zero_width');
  });

  it('flags other format characters, tags included', () => {
    for (const cp of [
      0x00ad,
      0x180e,
      ...range(0x2061, 0x2064),
      ...range(0x206a, 0x206f),
      ...range(0xfff9, 0xfffb),
      0xe0001,
      ...range(0xe0020, 0xe007f),
    ]) {
      expect(classifyCodePoint(cp), formatCodePoint(cp)).toBe('format');
    }
  });

  it('flags control characters except tab and line breaks', () => {
    for (const cp of [...range(0x00, 0x08), 0x0b, 0x0c, ...range(0x0e, 0x1f), 0x7f, ...range(0x80, 0x9f)])
      expect(classifyCodePoint(cp), formatCodePoint(cp)).toBe('control');
    for (const cp of [0x09, 0x0a, 0x0d]) expect(classifyCodePoint(cp)).toBeNull();
  });

  it('flags spaces other than U+0020 and the line and paragraph separators', () => {
    for (const cp of [0x00a0, 0x1680, ...range(0x2000, 0x200a), 0x202f, 0x205f, 0x3000, 0x2028, 0x2029])
      expect(classifyCodePoint(cp), formatCodePoint(cp)).toBe('space');
    expect(classifyCodePoint(0x20)).toBeNull();
  });

  it('flags lone surrogates, fillers, unassigned code points and stray variation selectors', () => {
    for (const cp of [0xd800, 0xdbff, 0xdc00, 0xdfff]) expect(classifyCodePoint(cp)).toBe('lone_surrogate');
    for (const cp of [0x034f, 0x115f, 0x1160, 0x3164, 0xffa0, 0x2800, 0xffff, 0x10ffff, 0xfe00, 0xe0100, 0xe01ef])
      expect(classifyCodePoint(cp), formatCodePoint(cp)).toBe('invisible');
    // VS16 after a visible character picks emoji presentation (❤️): not hidden.
    expect(classifyCodePoint(0xfe0f, 0x2764)).toBeNull();
    expect(classifyCodePoint(0xfe0f, 0x61)).toBe('invisible');
    expect(classifyCodePoint(0xfe0f, null)).toBe('invisible');
    expect(classifyCodePoint(0xfe0f, 0xfe0f)).toBe('invisible');
  });

  it('leaves ordinary text alone, in any script', () => {
    for (const char of ['a', 'Z', '~', 'é', 'ß', 'Ж', 'א', 'ع', '中', '😀', '𝔸'])
      expect(classifyCodePoint(char.codePointAt(0) as number), char).toBeNull();
  });
});

describe('revealHiddenCharacters', () => {
  it('turns a right-to-left override into a badge, so "\\u202Eevil" cannot pass for another word', () => {
    const revealed = revealHiddenCharacters('\u202Eevil');
    expect(drawn(revealed.segments)).toBe('<U+202E>evil');
    expect(revealed.segments[0]).toEqual({
      hidden: { codePoint: 0x202e, label: 'U+202E', name: 'RIGHT-TO-LEFT OVERRIDE', kind: 'bidi' },
      count: 1,
    });
    expect(revealed).toMatchObject({ hiddenCount: 1, kinds: ['bidi'], truncated: false });
  });

  it('reveals the Trojan Source shapes: overrides, isolates and their pops in the middle of text', () => {
    const text = 'access_level = "user\u202E \u2066// Check if admin\u2069 \u2066"';
    const revealed = revealHiddenCharacters(text);
    expect(drawn(revealed.segments)).toBe('access_level = "user<U+202E> <U+2066>// Check if admin<U+2069> <U+2066>"');
    expect(revealed.hiddenCount).toBe(4);
    expect(revealed.kinds).toEqual(['bidi']);
    // What is left after removing the badges reads exactly as typed: no control is still in the text.
    const plain = revealed.segments
      .filter((s): s is { text: string } => 'text' in s)
      .map((s) => s.text)
      .join('');
    expect(countHiddenCharacters(plain)).toBe(0);
  });

  it('reveals zero-width characters between letters', () => {
    expect(drawn(revealHiddenCharacters('pay\u200Bpal').segments)).toBe('pay<U+200B>pal');
    expect(drawn(revealHiddenCharacters('\uFEFFadmin\u2060').segments)).toBe('<U+FEFF>admin<U+2060>');
    expect(revealHiddenCharacters('a\u200Cb\u200Dc').kinds).toEqual(['zero_width']);
  });

  it('treats a surrogate pair as one character and a lone half as a hidden one', () => {
    expect(revealHiddenCharacters('😀 fine 𝔸').hiddenCount).toBe(0);
    // Tag characters (past U+FFFF) spell "hi" invisibly after a flag.
    const tags = revealHiddenCharacters('🏴\u{E0068}\u{E0069}');
    expect(drawn(tags.segments)).toBe('🏴<U+E0068><U+E0069>');
    expect(tags.kinds).toEqual(['format']);
    const lone = revealHiddenCharacters('a\uD800b\uDC00');
    expect(drawn(lone.segments)).toBe('a<U+D800>b<U+DC00>');
    expect(lone.kinds).toEqual(['lone_surrogate']);
  });

  it('collapses a run of the same character into one badge with a count', () => {
    const revealed = revealHiddenCharacters(`x${'\u200B'.repeat(10_000)}y`);
    expect(drawn(revealed.segments)).toBe('x<U+200B>×10000y');
    expect(revealed.hiddenCount).toBe(10_000);
  });

  it('bounds long strings: cuts rather than shows anything unrevealed, and still counts all', () => {
    const long = revealHiddenCharacters(`${'a'.repeat(200)}\u202E${'b'.repeat(200)}`, { maxLength: 100 });
    expect(drawn(long.segments)).toBe('a'.repeat(100));
    expect(long).toMatchObject({ truncated: true, hiddenCount: 1, kinds: ['bidi'] });

    const many = revealHiddenCharacters('a\u200Bb\u200C'.repeat(5_000), { maxHiddenRuns: 10 });
    expect(many.segments.filter((s) => 'hidden' in s)).toHaveLength(10);
    expect(many.truncated).toBe(true);
    expect(many.hiddenCount).toBe(10_000);
    // The plain text before the first hidden run left out is still shown.
    expect(drawn(many.segments)).toBe(`${'a<U+200B>b<U+200C>'.repeat(5)}a`);

    // A surrogate pair is never split at the cut.
    const pair = revealHiddenCharacters('ab😀', { maxLength: 3 });
    expect(drawn(pair.segments)).toBe('ab');
    expect(pair.truncated).toBe(true);

    const big = 'x'.repeat(1_000_000);
    const started = performance.now();
    const revealed = revealHiddenCharacters(big);
    expect(performance.now() - started).toBeLessThan(1_000);
    expect(revealed.truncated).toBe(true);
    expect(drawn(revealed.segments)).toHaveLength(100_000);
  });

  it('answers one plain segment for ordinary text and none for empty text', () => {
    expect(revealHiddenCharacters('refund 42 €')).toEqual({
      segments: [{ text: 'refund 42 €' }],
      hiddenCount: 0,
      kinds: [],
      truncated: false,
    });
    expect(revealHiddenCharacters('').segments).toEqual([]);
  });

  it('finds hidden characters in keys and values at any depth of pretty-printed JSON', () => {
    const value = { outer: { ['na\u200Bme']: ['ok', { deep: 'x\u202Ey' }] } };
    const revealed = revealHiddenCharacters(JSON.stringify(value, null, 2));
    expect(revealed.hiddenCount).toBe(2);
    expect(drawn(revealed.segments)).toContain('"na<U+200B>me"');
    expect(drawn(revealed.segments)).toContain('"x<U+202E>y"');
  });
});

describe('summarizeHiddenCharacters', () => {
  it('counts every hidden character of a text of any length, with its kinds in a stable order', () => {
    expect(summarizeHiddenCharacters(`\u200B${'x'.repeat(300_000)}\u202E\u00A0`)).toEqual({
      count: 3,
      kinds: ['bidi', 'zero_width', 'space'],
    });
    expect(summarizeHiddenCharacters('plain')).toEqual({ count: 0, kinds: [] });
  });
});

describe('escapeHiddenCharacters', () => {
  it('writes hidden characters inside JSON strings as escapes that parse back to the same value', () => {
    const value = { ['k\u200B']: '\u202Eevil', tag: '\u{E0041}', nbsp: 'a\u00A0b', ok: 'é😀', ctl: '\u0085' };
    const text = escapeHiddenCharacters(JSON.stringify(value, null, 2));
    expect(text).toContain('"k\\u200b"');
    expect(text).toContain('"\\u202eevil"');
    expect(text).toContain('"\\udb40\\udc41"');
    expect(text).toContain('"a\\u00a0b"');
    expect(text).toContain('"é😀"');
    expect(countHiddenCharacters(text)).toBe(0);
    expect(JSON.parse(text)).toEqual(value);
  });
});
