import { describe, expect, it } from 'vitest';
import { diffArguments, diffRedactedArguments, jsonEqual } from './diff-arguments';

describe('diffArguments', () => {
  it('lists changed, added and removed paths at any depth', () => {
    const before = { amount_cents: 4200, reason: 'duplicate', card: { last4: '4242', holder: 'Ada' }, note: 'x' };
    const after = { amount_cents: 2100, reason: 'duplicate', card: { last4: '4242', brand: 'visa' }, extra: true };
    expect(diffArguments(before, after)).toEqual({
      changes: [
        { kind: 'changed', path: '$.amount_cents', before: 4200, after: 2100 },
        { kind: 'removed', path: '$.card.holder', before: 'Ada' },
        { kind: 'added', path: '$.card.brand', after: 'visa' },
        { kind: 'removed', path: '$.note', before: 'x' },
        { kind: 'added', path: '$.extra', after: true },
      ],
      truncated: false,
    });
  });

  it('answers no changes for equal values, whatever the key order', () => {
    expect(diffArguments({ a: 1, b: { c: [1, 2] } }, { b: { c: [1, 2] }, a: 1 })).toEqual({ changes: [], truncated: false });
    expect(jsonEqual({ a: 1, b: 2 }, { b: 2, a: 1 })).toBe(true);
    expect(jsonEqual({ a: 1 }, { a: 1, b: undefined })).toBe(false);
    expect(jsonEqual([1], { 0: 1 })).toBe(false);
  });

  it('compares arrays index by index, with additions and removals at the end', () => {
    expect(diffArguments({ items: ['a', 'b', 'c'] }, { items: ['a', 'x'] }).changes).toEqual([
      { kind: 'changed', path: '$.items[1]', before: 'b', after: 'x' },
      { kind: 'removed', path: '$.items[2]', before: 'c' },
    ]);
    expect(diffArguments({ items: [{ sku: 'a' }] }, { items: [{ sku: 'b' }, { sku: 'c' }] }).changes).toEqual([
      { kind: 'changed', path: '$.items[0].sku', before: 'a', after: 'b' },
      { kind: 'added', path: '$.items[1]', after: { sku: 'c' } },
    ]);
  });

  it('reports a change of type as one change of the whole value', () => {
    expect(diffArguments({ a: { b: 1 } }, { a: [1] }).changes).toEqual([{ kind: 'changed', path: '$.a', before: { b: 1 }, after: [1] }]);
    expect(diffArguments({ a: null }, { a: 0 }).changes).toEqual([{ kind: 'changed', path: '$.a', before: null, after: 0 }]);
    expect(diffArguments({ a: '1' }, { a: 1 }).changes).toEqual([{ kind: 'changed', path: '$.a', before: '1', after: 1 }]);
  });

  it('quotes keys that are not identifiers and keeps hidden characters in them for the card to reveal', () => {
    expect(diffArguments({ 'a b': 1, 'x\u200B': 1 }, { 'a b': 2, 'x\u200B': 2 }).changes.map((c) => c.path)).toEqual([
      "$['a b']",
      "$['x\u200B']",
    ]);
  });

  it('treats __proto__ and constructor as plain keys, never the prototype', () => {
    const before = JSON.parse('{"__proto__": {"admin": false}, "constructor": 1}') as Record<string, unknown>;
    const after = JSON.parse('{"__proto__": {"admin": true}}') as Record<string, unknown>;
    expect(diffArguments(before, after).changes).toEqual([
      { kind: 'changed', path: '$.__proto__.admin', before: false, after: true },
      { kind: 'removed', path: '$.constructor', before: 1 },
    ]);
    expect(diffArguments({}, { toString: 'x' }).changes).toEqual([{ kind: 'added', path: '$.toString', after: 'x' }]);
  });

  it('stops at the change limit and says so', () => {
    const before = Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`k${i}`, i]));
    const after = Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`k${i}`, i + 1]));
    const diff = diffArguments(before, after, { maxChanges: 10 });
    expect(diff.changes).toHaveLength(10);
    expect(diff.truncated).toBe(true);
    expect(diffArguments(before, after, { maxChanges: 50 }).truncated).toBe(false);
  });

  it('reports a difference deeper than the depth limit as one change of the subtree', () => {
    const nest = (depth: number, leaf: unknown): unknown => (depth === 0 ? leaf : { n: nest(depth - 1, leaf) });
    const diff = diffArguments(nest(40, 1), nest(40, 2));
    expect(diff.changes).toHaveLength(1);
    expect(diff.changes[0]?.path).toBe(`$${'.n'.repeat(32)}`);
  });
});

describe('diffRedactedArguments', () => {
  const sensitive = ['card.last4', 'card.holder_name'];

  it('never shows a sensitive value, yet shows that it changed', () => {
    const original = { amount_cents: 4200, card: { last4: '4242', holder_name: 'Ada' } };
    const edited = { amount_cents: 2100, card: { last4: '1111', holder_name: 'Ada' } };
    expect(diffRedactedArguments({ original, edited, sensitive }).changes).toEqual([
      { kind: 'changed', path: '$.amount_cents', before: 4200, after: 2100 },
      { kind: 'changed', path: '$.card.last4', before: '[REDACTED]', after: '[REDACTED]' },
    ]);
  });

  it('shows a sensitive value added or removed as the marker', () => {
    expect(diffRedactedArguments({ original: { card: {} }, edited: { card: { last4: '4242' } }, sensitive }).changes).toEqual([
      { kind: 'added', path: '$.card.last4', after: '[REDACTED]' },
    ]);
    expect(diffRedactedArguments({ original: { card: { holder_name: 'Ada' } }, edited: {}, sensitive }).changes).toEqual([
      { kind: 'removed', path: '$.card', before: { holder_name: '[REDACTED]' } },
    ]);
  });

  it('lists nothing when only unchanged sensitive values are there', () => {
    const args = { card: { last4: '4242', holder_name: 'Ada' } };
    expect(diffRedactedArguments({ original: args, edited: structuredClone(args), sensitive }).changes).toEqual([]);
  });
});
