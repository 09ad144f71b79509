import { describe, expect, it } from 'vitest';
import { argumentPathStatus } from './schema-declarations';

describe('argumentPathStatus', () => {
  const input = {
    type: 'object',
    properties: {
      order: { $ref: '#/$defs/order' },
      tags: { type: 'array', items: { type: 'string' } },
      pair: { type: 'array', prefixItems: [{ type: 'object', properties: { x: {} } }] },
      meta: { type: 'object' },
      labels: { type: 'object', additionalProperties: { type: 'object', properties: { v: {} } } },
    },
    allOf: [{ properties: { extra: {} } }],
    $defs: { order: { type: 'object', properties: { lines: { type: 'array', items: { properties: { sku: {} } } } } } },
  };

  it.each([
    [['order', 'lines', 0, 'sku'], true],
    [['order', 'lines', 0, 'skew'], false],
    [['tags', 3], true],
    [['pair', 0, 'x'], true],
    [['pair', 0, 'y'], false],
    [['meta', 'anything', 'deeper'], true],
    [['labels', 'any', 'v'], true],
    [['labels', 'any', 'w'], false],
    [['extra'], true],
    [['nope'], false],
  ] as const)('%j declared: %s', (path, declared) => {
    expect(argumentPathStatus(input, path).declared).toBe(declared);
  });

  it('says how deep the first undeclared segment is', () => {
    expect(argumentPathStatus(input, ['order', 'linez', 0])).toEqual({ declared: false, depth: 1 });
    expect(argumentPathStatus(true, ['a'])).toEqual({ declared: true });
  });
});
