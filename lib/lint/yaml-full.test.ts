import { describe, expect, it } from 'vitest';
import { parseDocument, stringify } from 'yaml';
import { YAML_OPTIONS } from './yaml-fast-scalars';
import { parseYamlFull } from './yaml-full';
import { parseDocument as parseToolgateDocument } from './parse-document';

/** What the `yaml` package itself makes of the text, aliases resolved its own way. */
const reference = (text: string) => parseDocument(text, YAML_OPTIONS).toJS({ maxAliasCount: -1 }) as unknown;

const value = (text: string) => {
  const result = parseYamlFull(text, 200_000, 64);
  if (result.kind !== 'ok') throw new Error(`${result.kind}: ${JSON.stringify(result)}`);
  return result.value;
};

describe('parseYamlFull aliases', () => {
  it.each([
    ['a plain alias', 'a: &x [1, 2]\nb: *x\n'],
    ['an anchor redefined: each alias takes the last one before it', 'a: &x 1\nb: *x\nc: &x 2\nd: *x\n'],
    [
      'an anchor redefined inside an aliased node does not change what later aliases name',
      'a: &x 1\nb: &y [ &x 2 ]\nc: &x 3\nd: *y\ne: *x\n',
    ],
    ['an anchor on a key', '&k name: 1\nother: *k\n'],
    ['an alias inside an anchored mapping', 'a: &x 1\nb: &y { p: *x }\nc: [*y, *y]\n'],
    ['nested anchors reused at depth', 'base: &b { tools: &t [a, b], n: 1 }\nr1: { tools: *t, base: *b }\nr2: *b\n'],
    ['a null anchored value', 'a: &x\nb: *x\n'],
  ])('%s: the same value as the yaml package', (_label, text) => {
    expect(value(text)).toEqual(reference(text));
  });

  it('reads a document of thousands of aliases, as yaml.stringify writes shared objects', () => {
    const tools = ['support.issue_credit'];
    const doc = { rules: Array.from({ length: 3000 }, (_, i) => ({ id: `r${i}`, tools })) };
    const text = stringify(doc);
    expect(text.match(/\*a1/g)?.length).toBe(2999);
    expect(value(text)).toEqual(doc);
  });

  it('still counts the values an alias expands to against the bound', () => {
    const text = [
      'a: &a [x, x, x, x, x, x, x, x, x, x]',
      'b: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a, *a]',
      'c: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b, *b]',
      'd: [*c, *c, *c, *c, *c, *c, *c, *c, *c, *c]',
    ].join('\n');
    expect(parseYamlFull(text, 5_000, 64)).toEqual({
      kind: 'limit',
      message: 'The document expands to more than 5000 values (aliases included).',
    });
  });

  it('bounds the characters of strings and keys aliases expand to', () => {
    const text = [
      's: &s abcdefghij',
      'k: &k {key_of_ten: 1}',
      `list: [${Array.from({ length: 9 }, () => '*s').join(', ')}]`,
      'maps: [*k, *k]',
    ].join('\n');
    // The string 10 times (100), the top keys (10), `key_of_ten` in its map and both aliases (30).
    expect(parseYamlFull(text, 200_000, 64, 140)).toMatchObject({ kind: 'ok' });
    expect(parseYamlFull(text, 200_000, 64, 139)).toEqual({
      kind: 'limit',
      message: 'The document expands to more than 139 characters of strings (aliases included).',
    });
    // Through parseDocument: a 100 KB string behind twelve doubling anchors (800 MB expanded).
    const doubling = [`l0: &l0 "${'x'.repeat(100_000)}"`];
    for (let i = 1; i <= 12; i++) doubling.push(`l${i}: &l${i} [*l${i - 1}, *l${i - 1}]`);
    expect(parseToolgateDocument(doubling.join('\n'), 'yaml').diagnostics).toMatchObject([
      { code: 'DOCUMENT_TOO_LARGE', message: 'The document expands to more than 10000000 characters of strings (aliases included).' },
    ]);
  });

  it('refuses an alias that contains itself as too deep, not a stack overflow', () => {
    expect(parseYamlFull('a: &x [ *x ]\n', 200_000, 64)).toEqual({ kind: 'limit', message: 'The document nests deeper than 64 levels.' });
  });
});
