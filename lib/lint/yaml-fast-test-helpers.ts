import { expect } from 'vitest';
import type { SpanNode } from './json-syntax';
import { parseYamlFast } from './yaml-fast';
import { parseYamlFull } from './yaml-full';

/** Shared by the fast YAML path's tests: the check that it gives exactly what the full parser gives. */

export const MAX_NODES = 200_000;
export const MAX_DEPTH = 64;

/** Values and spans as comparable trees: key order, -0, NaN and prototypes all count. */
function canonValue(value: unknown): unknown {
  if (typeof value === 'number') return `number:${Object.is(value, -0) ? '-0' : String(value)}`;
  if (typeof value === 'string') return `string:${value}`;
  if (value === null || typeof value === 'boolean') return value;
  if (Array.isArray(value)) return { array: value.map(canonValue) };
  if (typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype) {
    return { object: Object.keys(value).map((key) => [key, canonValue((value as Record<string, unknown>)[key])]) };
  }
  return { other: String(value) };
}

function canonSpan(span: SpanNode): unknown {
  const children = span.children;
  return {
    key: span.key ?? null,
    value: span.value,
    children:
      children === undefined
        ? null
        : Array.isArray(children)
          ? children.map(canonSpan)
          : [...children].map(([key, child]) => [key, canonSpan(child)]),
  };
}

/**
 * The property every accepted text must have: the full parser (the `yaml` package) accepts it
 * too, with the same value and the same key and value range for every node.
 */
export function expectSameAsFull(text: string): boolean {
  const fast = parseYamlFast(text, MAX_NODES, MAX_DEPTH);
  if (!fast) return false;
  const full = parseYamlFull(text, MAX_NODES, MAX_DEPTH);
  expect(full.kind, `the yaml package refuses ${JSON.stringify(text)}`).toBe('ok');
  if (full.kind !== 'ok') return true;
  expect(canonValue(fast.value)).toEqual(canonValue(full.value));
  expect(canonSpan(fast.spans)).toEqual(canonSpan(full.spans));
  return true;
}
