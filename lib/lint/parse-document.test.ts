import { describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { parseDocument } from './parse-document';
import { parseYamlFast } from './yaml-fast';

const range = (startLine: number, startColumn: number, endLine: number, endColumn: number) => ({
  startLine,
  startColumn,
  endLine,
  endColumn,
});

describe('parseDocument (YAML)', () => {
  it('reads what the fast path accepts into the same value and ranges as JSON would give', () => {
    const text = 'id: support # the id\ntools:\n  - name: lookup\n    executor: host\n  - contract: svc.op\nlimit: 10\n';
    expect(parseYamlFast(text, 200_000, 64)).toBeDefined();
    const parsed = parseDocument(text, 'yaml');
    expect(parsed.diagnostics).toEqual([]);
    expect(parsed.value).toEqual({ id: 'support', tools: [{ name: 'lookup', executor: 'host' }, { contract: 'svc.op' }], limit: 10 });
    expect(parsed.locate(['tools', 0, 'executor'], 'key')).toEqual(range(4, 5, 4, 13));
    expect(parsed.locate(['tools', 0, 'executor'])).toEqual(range(4, 15, 4, 19));
    expect(parsed.locate(['id'])).toEqual(range(1, 5, 1, 12));
    // A missing member underlines its parent's key; a missing top-level one, line 1.
    expect(parsed.locate(['tools', 1, 'name'])).toEqual(range(5, 5, 6, 1));
    expect(parsed.locate(['missing'])).toEqual(range(1, 1, 1, 21));
  });

  it('reports a syntax error at its position (the full parser, as before)', () => {
    expect(parseDocument('a: b: c\n', 'yaml')).toMatchObject({
      value: undefined,
      diagnostics: [
        {
          code: 'DOCUMENT_PARSE_ERROR',
          message: 'YAML syntax: Nested mappings are not allowed in compact mappings',
          range: range(1, 4, 1, 5),
        },
      ],
    });
  });

  it('says that a second YAML document is one too many, in the words of the format, not of the parser library', () => {
    expect(parseDocument('id: a\nversion: 1.0.0\n---\nid: b\n', 'yaml').diagnostics).toEqual([
      expect.objectContaining({
        code: 'DOCUMENT_PARSE_ERROR',
        message:
          'YAML syntax: The text holds more than one YAML document (a second `---`); write one document, and start another file for the next.',
        range: range(3, 1, 5, 1),
      }),
    ]);
  });

  it('reports a duplicate key, also when one of the two is quoted', () => {
    expect(parseDocument('id: x\nid: y\n', 'yaml').diagnostics).toMatchObject([
      { code: 'DOCUMENT_DUPLICATE_KEY', range: range(2, 1, 2, 2) },
    ]);
    expect(parseDocument('a:\n  b: 1\n  "b": 2\n', 'yaml').diagnostics).toMatchObject([
      { code: 'DOCUMENT_DUPLICATE_KEY', range: range(3, 3, 3, 4) },
    ]);
  });

  it('refuses alias expansion past 200,000 values', () => {
    const levels = ['a: &a [1,1,1,1,1,1,1,1,1]'];
    for (const [prev, name] of [
      ['a', 'b'],
      ['b', 'c'],
      ['c', 'd'],
      ['d', 'e'],
      ['e', 'f'],
    ])
      levels.push(`${name}: &${name} [${Array(9).fill(`*${prev}`).join(',')}]`);
    expect(parseDocument(levels.join('\n'), 'yaml')).toMatchObject({
      value: undefined,
      diagnostics: [{ code: 'DOCUMENT_TOO_LARGE', message: 'The document expands to more than 200000 values (aliases included).' }],
    });
  });

  it('refuses nesting past 64 levels and accepts 64', () => {
    const nested = (levels: number) => Array.from({ length: levels }, (_, i) => `${' '.repeat(i)}k:`).join('\n') + ' 1\n';
    expect(parseDocument(nested(64), 'yaml').diagnostics).toEqual([]);
    expect(parseDocument(nested(65), 'yaml')).toMatchObject({
      value: undefined,
      diagnostics: [{ code: 'DOCUMENT_TOO_LARGE', message: 'The document nests deeper than 64 levels.' }],
    });
  });

  // The `yaml` package recurses per level: about 1,000 levels of `[` or `- ` in 2 KB aborted the
  // whole process (a V8 fatal error, not an exception), the second time such a text was parsed.
  it('refuses flow collections and compact sequences nested past what the YAML parser survives, every time', () => {
    const deep = [
      '['.repeat(5000) + ']'.repeat(5000),
      '{a: '.repeat(3000) + '1' + '}'.repeat(3000),
      '- '.repeat(5000) + 'x\n',
      'k: ' + '['.repeat(1000),
    ];
    for (let round = 0; round < 3; round++)
      for (const text of deep)
        expect(parseDocument(text, 'yaml')).toMatchObject({
          value: undefined,
          diagnostics: [{ code: 'DOCUMENT_TOO_LARGE', message: 'The document nests deeper than 64 levels.' }],
        });
  });

  it('counts no brackets in quoted scalars and comments, and accepts what nests less than the limit', () => {
    const brackets = '['.repeat(300);
    const text = `pattern: "^${brackets}"\nother: '${brackets}'\n# ${brackets}\nlist: [[1, 2], {a: [3]}]\nsteps:\n  - - - x\n`;
    const parsed = parseDocument(text, 'yaml');
    expect(parsed.diagnostics).toEqual([]);
    expect(parsed.value).toMatchObject({ pattern: `^${brackets}`, other: brackets, list: [[1, 2], { a: [3] }], steps: [[['x']]] });
    expect(parseDocument('['.repeat(60) + ']'.repeat(60), 'yaml').diagnostics).toEqual([]);
  });

  // The full parser reads 200,001 values: about a second alone, past the 5 s default on a loaded
  // 2-core machine (a CI run timed it out). The answer is what is tested, not the time.
  it('refuses over 200,000 values without aliases too (the fast path stands aside, the full parser counts)', () => {
    expect(parseDocument('- 1\n'.repeat(200_001), 'yaml').diagnostics).toMatchObject([{ code: 'DOCUMENT_TOO_LARGE' }]);
  }, 30_000);

  it('keeps __proto__ and constructor as data on the fast path', () => {
    const text = '__proto__:\n  polluted: true\nconstructor: x\n';
    expect(parseYamlFast(text, 200_000, 64)).toBeDefined();
    const value = parseDocument(text, 'yaml').value as Record<string, unknown>;
    expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
    expect(Object.keys(value)).toEqual(['__proto__', 'constructor']);
    expect(Object.getOwnPropertyDescriptor(value, '__proto__')?.value).toEqual({ polluted: true });
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('reads YAML the fast path does not take (flow, anchors) with the full parser', () => {
    const text = 'base: &base {type: string}\nfields: [*base, {type: integer}]\n';
    expect(parseYamlFast(text, 200_000, 64)).toBeUndefined();
    const parsed = parseDocument(text, 'yaml');
    expect(parsed.value).toEqual({ base: { type: 'string' }, fields: [{ type: 'string' }, { type: 'integer' }] });
    expect(parsed.locate(['fields', 1, 'type'])).toEqual(range(2, 24, 2, 31));
  });

  it('reads what yaml.stringify writes on the fast path', () => {
    const data = { id: 's', version: '1.0.0', n: 1.5, ok: true, none: null, list: ['a', 'b: c', '#x', ''], deep: { k: [{ x: 1 }] } };
    const text = stringify(data);
    expect(parseYamlFast(text, 200_000, 64)).toBeDefined();
    expect(parseDocument(text, 'yaml').value).toEqual(data);
  });

  it('refuses a document over 1,000,000 characters before parsing', () => {
    expect(parseDocument(`a: ${'x'.repeat(1_000_000)}\n`, 'yaml').diagnostics).toMatchObject([{ code: 'DOCUMENT_TOO_LARGE' }]);
  });
});

describe('parseDocument: numbers a double cannot hold', () => {
  const found = (text: string, format: 'json' | 'yaml') =>
    parseDocument(text, format).diagnostics.map((d) => [d.code, d.path, d.range.startLine, d.range.startColumn]);

  it('flags them in JSON exactly, where they are written, and keeps the value parsed', () => {
    const text = '{\n  "maximum": 1e309,\n  "const": 9007199254740993,\n  "tiny": 1e-400\n}';
    expect(found(text, 'json')).toEqual([
      ['DOCUMENT_NUMBER_UNREPRESENTABLE', '$.maximum', 2, 14],
      ['DOCUMENT_NUMBER_UNREPRESENTABLE', '$.const', 3, 12],
      ['DOCUMENT_NUMBER_UNREPRESENTABLE', '$.tiny', 4, 11],
    ]);
    expect(parseDocument(text, 'json').diagnostics[1]?.message).toContain('9007199254740993 is an integer beyond ±(2^53−1)');
    expect(parseDocument(text, 'json').value).toBeDefined();
    // Near twins: the largest safe integer, decimals, and the same digits in a string.
    expect(found('{"a": 9007199254740991, "b": 0.1, "c": "9007199254740993", "d": 1.0000000000000001}', 'json')).toEqual([]);
  });

  it('flags infinite and unsafe integral YAML numbers however YAML spells them', () => {
    expect(
      found('maximum: .inf\nconst: 9007199254740993\nhex: 0x20000000000001\nok: 9007199254740991\ns: "9007199254740993"\n', 'yaml'),
    ).toEqual([
      ['DOCUMENT_NUMBER_UNREPRESENTABLE', '$.maximum', 1, 10],
      ['DOCUMENT_NUMBER_UNREPRESENTABLE', '$.const', 2, 8],
      ['DOCUMENT_NUMBER_UNREPRESENTABLE', '$.hex', 3, 6],
    ]);
  });
});
