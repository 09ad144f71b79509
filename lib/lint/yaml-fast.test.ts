import { describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { parseYamlFast } from './yaml-fast';
import { expectSameAsFull, MAX_DEPTH, MAX_NODES } from './yaml-fast-test-helpers';

describe('parseYamlFast', () => {
  it('accepts a surface as yaml.stringify writes it, with the same value and ranges', () => {
    const surface = {
      id: 'support',
      version: '1.0.0',
      tools: Array.from({ length: 30 }, (_, i) => ({
        name: `tool_${i}`,
        description: `Does thing ${i}: carefully, #${i}.`,
        parameters: {
          type: 'object',
          required: ['path'],
          properties: { path: { type: 'string' }, depth: { type: 'integer', minimum: -1, maximum: 1.5 } },
        },
        annotations: { side_effect_level: 'read_only', idempotent: i % 2 === 0, deprecated: null, aliases: { p: 'path' } },
      })),
      policy: { tools: ['tool_*', 'svc?.*'], side_effect_ceiling: 'external' },
    };
    expect(expectSameAsFull(stringify(surface))).toBe(true);
  });

  it.each([
    [
      'hand-written YAML with comments, quotes and blank lines',
      '# surface\nid: support   # the id\nversion: \'1.0.0\'\n\ntools:\n  # first\n  - name: "a\\tb"\n    executor: host\n\n  - name: c\n# trailing\n',
    ],
    ['a sequence at its key’s indent', 'tools:\n- a\n- b\npolicy: 1\n'],
    ['an indented root mapping', '  a: 1\n  b:\n    - x\n'],
    ['empty values', 'a:\nb: ~\nc:\n  -\n  - \n'],
    ['numbers, booleans and nulls of the core schema', 'a: 0o17\nb: 0x1F\nc: -0\nd: .inf\ne: 1.50\nf: True\ng: NULL\nh: 1e3\n'],
    ['keys of other types, as strings', '1: a\ntrue: b\n~: c\n1.5: d\n'],
    ['__proto__ as an ordinary key', '__proto__:\n  polluted: true\n'],
    ['empty flow collections', 'required: []\nproperties: {}  # none\nitems:\n  - []\n  - {}\n'],
    ['one-line flow sequences of scalars', 'required: [tenant_id, \'target id\', "x"]\nenum: [ 1, true, ~ ]  # c\nitems:\n  - [a]\n'],
  ])('accepts %s', (_, text) => {
    expect(expectSameAsFull(text)).toBe(true);
  });

  it('keeps __proto__ as data, never as the prototype', () => {
    const parsed = parseYamlFast('__proto__:\n  polluted: true\n', MAX_NODES, MAX_DEPTH);
    const value = parsed?.value as Record<string, unknown>;
    expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
    expect(Object.keys(value)).toEqual(['__proto__']);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it.each([
    ['a flow sequence over two lines', 'a: [1,\n  2]\n'],
    ['a flow sequence with a pair', 'a: [b: 1]\n'],
    ['a nested flow sequence', 'a: [[1]]\n'],
    ['a flow mapping', 'a: {b: 1}\n'],
    ['a block scalar', 'a: |\n  text\n'],
    ['a multi-line plain scalar', 'a: one\n  two\n'],
    ['a multi-line quoted scalar', 'a: "one\n  two"\n'],
    ['an anchor and alias', 'a: &x 1\nb: *x\n'],
    ['a tag', 'a: !!str 1\n'],
    ['an explicit key', '? a\n: 1\n'],
    ['a document marker', '---\na: 1\n'],
    ['a directive', '%YAML 1.2\n---\na: 1\n'],
    ['a tab', 'a:\tb\n'],
    ['CRLF line ends', 'a: 1\r\nb: 2\r\n'],
    ['a duplicate key', 'a: 1\na: 2\n'],
    ['keys whose string forms collide', '1: a\n"1": b\n'],
    ['a scalar document', 'just text\n'],
    ['a comments-only document', '# nothing\n'],
    ['a syntax error', 'a: b: c\n'],
    ['bad indentation', 'a:\n    b: 1\n  c: 2\n'],
    ['a nested key that ends after a more indented comment', 'a:\n  b: 1\n    # deeper\nc: 2\n'],
    ['an empty last value with a comment', 'a:\n  b: # why\nc: 2\n'],
    ['a key over 1024 characters', `${'k'.repeat(1100)}: 1\n`],
  ])('stands aside for %s', (_, text) => {
    expect(parseYamlFast(text, MAX_NODES, MAX_DEPTH)).toBeUndefined();
  });

  it('stands aside past the value and depth bounds, so the full parser reports them', () => {
    expect(parseYamlFast('- 1\n- 2\n- 3\n', 3, MAX_DEPTH)).toBeUndefined();
    expect(parseYamlFast('- 1\n- 2\n', 3, MAX_DEPTH)).toBeDefined();
    const nested = (levels: number) => Array.from({ length: levels }, (_, i) => `${' '.repeat(i)}k:`).join('\n') + ' 1\n';
    expect(parseYamlFast(nested(64), MAX_NODES, MAX_DEPTH)).toBeDefined();
    expect(parseYamlFast(nested(65), MAX_NODES, MAX_DEPTH)).toBeUndefined();
  });
});
