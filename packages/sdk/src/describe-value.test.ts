import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { describeValue } from './describe-value';

/** The definition: JSON of the whole value, cut to 80 characters. */
function byDefinition(value: unknown): string {
  let text: string;
  try {
    text = value === undefined ? 'undefined' : (JSON.stringify(value) ?? String(value));
  } catch {
    text = String(value);
  }
  return text.length > 80 ? `${text.slice(0, 79)}…` : text;
}

describe('describeValue', () => {
  it('quotes any string as its JSON cut to 80 characters, whatever code units it holds and wherever the cut falls', () => {
    const unit = fc.oneof(
      fc.integer({ min: 0, max: 0xffff }).map((c) => String.fromCharCode(c)),
      fc.constantFrom('"', '\\', '\n', '\u0000', '😀', '\ud800', 'a'),
    );
    fc.assert(
      fc.property(fc.string({ unit, maxLength: 200 }), (s) => describeValue(s) === byDefinition(s)),
      { numRuns: 3000 },
    );
  });

  it('quotes other values as their JSON, cut the same way', () => {
    fc.assert(
      fc.property(fc.anything(), (v) => describeValue(v) === byDefinition(v)),
      { numRuns: 500 },
    );
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(describeValue(cyclic)).toBe('[object Object]');
    expect(describeValue(undefined)).toBe('undefined');
    expect(describeValue(10n)).toBe('10');
  });

  it('does not copy a megabyte string to quote its start', () => {
    const big = `${'x'.repeat(78)}"${'y'.repeat(1_000_000)}`;
    expect(describeValue(big)).toBe(`"${'x'.repeat(78)}…`);
    expect(describeValue(`${'é'.repeat(79)}\n`)).toBe(`"${'é'.repeat(78)}…`);
  });
});
