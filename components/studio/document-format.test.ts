import { describe, expect, it } from 'vitest';
import { convertDocument, formatDocument, orderLikeSchema, readDocument } from './document-format';

describe('convertDocument', () => {
  it('turns JSON into YAML and back to the same value', () => {
    const json = '{\n  "id": "cart.view",\n  "annotations": {"kind": "query", "roles": ["a", "b"]}\n}';
    const yaml = convertDocument(json, 'json', 'yaml');
    expect(yaml).toEqual({
      ok: true,
      value: expect.anything(),
      text: 'id: cart.view\nannotations:\n  kind: query\n  roles:\n    - a\n    - b\n',
    });
    const back = convertDocument(yaml.ok ? yaml.text : '', 'yaml', 'json');
    expect(back.ok && JSON.parse(back.text)).toEqual({ id: 'cart.view', annotations: { kind: 'query', roles: ['a', 'b'] } });
  });

  it('refuses text that does not parse and says where', () => {
    const result = convertDocument('{"id": ', 'json', 'yaml');
    expect(result.ok).toBe(false);
    expect(!result.ok && result.message).toMatch(/line 1, column \d+/);
  });

  it('keeps an own __proto__ key as data instead of changing the prototype', () => {
    const result = convertDocument('{"__proto__": {"polluted": true}}', 'json', 'yaml');
    expect(result.ok && result.text).toBe('__proto__:\n  polluted: true\n');
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('writes repeated objects out in full rather than as YAML aliases', () => {
    const shared = { type: 'string' };
    expect(formatDocument({ a: shared, b: shared }, 'yaml')).toBe('a:\n  type: string\nb:\n  type: string\n');
  });

  it('refuses a billion-laughs document instead of expanding it', () => {
    const bomb = [
      'a: &a [x, x, x, x, x, x, x, x, x, x]',
      ...'bcdefgh'.split('').map((n, i) => `${n}: &${n} [${Array(10).fill(`*${'abcdefgh'[i]}`).join(', ')}]`),
    ].join('\n');
    expect(readDocument(bomb, 'yaml').ok).toBe(false);
  });
});

describe('orderLikeSchema', () => {
  const schema = {
    properties: {
      id: {},
      version: {},
      annotations: { properties: { kind: {}, level: {} } },
      list: { items: { properties: { b: {}, a: {} } } },
    },
  };

  it('puts members in the schema order, nested ones too, and keeps unknown members after them', () => {
    const stored = { annotations: { level: 'x', kind: 'q' }, extra: 1, id: 'a.b', list: [{ a: 1, b: 2 }], version: '1.0.0' };
    expect(JSON.stringify(orderLikeSchema(stored, schema))).toBe(
      '{"id":"a.b","version":"1.0.0","annotations":{"kind":"q","level":"x"},"list":[{"b":2,"a":1}],"extra":1}',
    );
  });

  it('keeps a __proto__ member as data', () => {
    const stored = JSON.parse('{"__proto__": {"x": 1}, "id": "a"}') as unknown;
    const ordered = orderLikeSchema(stored, schema) as Record<string, unknown>;
    expect(Object.keys(ordered)).toEqual(['id', '__proto__']);
    expect(Object.getPrototypeOf(ordered)).toBe(Object.prototype);
  });
});
