import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import type { SpanNode } from './json-syntax';
import { parseYamlFast } from './yaml-fast';
import { parseYamlFull } from './yaml-full';

const MAX_NODES = 200_000;
const MAX_DEPTH = 64;

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
    children: children === undefined ? null : Array.isArray(children) ? children.map(canonSpan) : [...children].map(([key, child]) => [key, canonSpan(child)]),
  };
}

/**
 * The property every accepted text must have: the full parser (the `yaml` package) accepts it
 * too, with the same value and the same key and value range for every node.
 */
function expectSameAsFull(text: string): boolean {
  const fast = parseYamlFast(text, MAX_NODES, MAX_DEPTH);
  if (!fast) return false;
  const full = parseYamlFull(text, MAX_NODES, MAX_DEPTH);
  expect(full.kind, `the yaml package refuses ${JSON.stringify(text)}`).toBe('ok');
  if (full.kind !== 'ok') return true;
  expect(canonValue(fast.value)).toEqual(canonValue(full.value));
  expect(canonSpan(fast.spans)).toEqual(canonSpan(full.spans));
  return true;
}

/** A small deterministic generator (mulberry32), so that a failing seed reproduces. */
function random(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (n: number) => Math.floor(next() * n);
  const pick = <T,>(items: readonly T[]): T => items[int(items.length)] as T;
  return { next, int, pick, chance: (p: number) => next() < p };
}

type Random = ReturnType<typeof random>;

/** Scalar texts chosen to sit on every boundary of the core schema and of plain-scalar syntax. */
const WORDS = [
  'a', 'b', 'foo bar', 'x:y', 'a#b', 'svc1.op_2', '-x', '-1', '+1', '0', '-0', '007', '0o17', '0o8', '0x1F', '0xg', '1.5', '1.', '.5', '1e3', '1E-3', '.e3',
  '.inf', '-.Inf', '+.INF', '.nan', '.NaN', '.NAN', 'nan', 'inf', 'null', 'Null', 'NULL', 'nULL', '~', '~x', 'true', 'True', 'TRUE', 'tRue', 'false', 'False',
  'FALSE', 'fals', 'yes', 'no', 'on', 'off', 'y', 'n', 'f', 't', 'N', '1_000', '0b11', '12:30', '12:30:00', 'http://x.y/z?q=1#f', '__proto__', 'constructor',
  'toString', '<<', '{a}', 'a,b', '[x]', 'x]', 'x}', 'é', '日本', '😀', 'a  b', '-', '--', '--x', '---', '...', '?', '?x', ':', ':x', 'a:', 'a: b', 'a :b',
  '#x', '@x', '`x', '%x', '!x', '!!str x', '&x', '*x', '|', '>', 'a | b', 'a > b', "it's", 'say "hi"', '1.0.0', '9007199254740993', '1e400', '-1e400',
  '[]', '{}', '[ ]', '{ }', '[]x', '[],', '{}:', '[] [', '[a, b]', "[ 'x', \"y\" , 1 ]", '[1,2]', '[a b,c]', '[a,]', '[,a]', '[a,,b]', '[-]', '[-1, -x]',
  '[a:b]', '[a: b]', '[a#b]', '[a #b]', '[[a]]', '[{}]', '[a]]', '[a] b', '[~, null, .5, 0x1F]', "['it''s']", '["a\\tb"]', '[a, {b}]', '[ ]x', '0.1', '+0.5', '-.5', '123456789012345678901234567890', 'ab\u00a0cd', '\u00a0', 'x\u00a0#y', 'a\\b', 'tab\there', 'cr\rhere', 'Ω≈ç', 'true ', ' x',
];

const KEYS = [
  'id', 'name', 'type', 'tools', 'true', 'null', '~', '1', '01', '1.0', '0x1', '-1', '.inf', '.nan', 'a b', 'a:b', 'a#b', '__proto__', 'constructor',
  'hasOwnProperty', '<<', '$ref', 'application/json', '/path/{id}', 'x-y', '-x', '?x', ':x', '', 'é', '日本', 'k ', 'k#', '"q"', 'a\u00a0b',
];

function plainOrQuoted(rng: Random, text: string, key: boolean, clean: boolean): string {
  const style = rng.int(10);
  if (style < 6) return text;
  if (style < 8) return `'${text.replace(/'/g, "''")}'`;
  const escapes = ['\\n', '\\t', '\\"', '\\\\', '\\/', '\\x41', '\\u00e9', '\\U0001F600', '\\0', '\\e', '\\N', '\\_', '\\ ', '\\ud83d\\ude00'];
  const broken = ['\\q', '\\u12', '\\UFFFFFFFF', '\\'];
  let body = JSON.stringify(text).slice(1, -1);
  if (rng.chance(0.4)) body += rng.pick(clean ? escapes : [...escapes, ...broken]);
  if (!key && !clean && rng.chance(0.05)) body += '\n  continued';
  return `"${body}"`;
}

/** The words that a fast-path document may hold as plain values or keys (chosen by the fast path itself; the comparison is still with the full parser). */
const PLAIN_WORDS = WORDS.filter((word) => parseYamlFast(`k: ${word}\n`, MAX_NODES, MAX_DEPTH) !== undefined);
const PLAIN_KEYS = KEYS.filter((key) => parseYamlFast(`${key}: 1\n`, MAX_NODES, MAX_DEPTH) !== undefined);

/** A short random string of characters that matter to plain and quoted scalars. */
function randomWord(rng: Random): string {
  const chars = ['a', 'b', 'e', 'n', 'u', 'l', 't', 'r', 'x', '0', '1', '9', ' ', ' ', ':', '-', '#', "'", '"', '\\', '.', '~', '+', ',', '[', ']', '{', '}', '?', '&', '*', '!', '|', '>', '%', '@', '`', '\u00a0', 'é', '😀'];
  let word = '';
  for (let i = 1 + rng.int(6); i > 0; i--) word += rng.pick(chars);
  return word;
}

function scalar(rng: Random, clean: boolean, key = false): string {
  if (rng.chance(0.1)) return plainOrQuoted(rng, randomWord(rng), key, clean);
  if (clean) return plainOrQuoted(rng, key ? rng.pick(PLAIN_KEYS) : rng.pick(PLAIN_WORDS), key, true);
  return plainOrQuoted(rng, key ? rng.pick(KEYS) : rng.pick(WORDS), key, false);
}

function comment(rng: Random): string {
  return rng.pick(['# c', '#', '#x # y', '# a: b', '# - x']);
}

/**
 * Renders a random block document. Indentation steps, compact and same-indent sequences,
 * trailing spaces, end-of-line and full-line comments at any indent, and blank lines are all
 * varied; a few lines are then damaged at random so that near-misses are tried as well.
 */
function document(rng: Random): string {
  // Half the documents keep to what the fast path reads, so that it is compared often; the
  // rest wander off its edges.
  const clean = rng.chance(0.5);
  const lines: string[] = [];
  const spaces = (n: number) => ' '.repeat(Math.max(0, n));
  const tail = () => (rng.chance(0.15) ? spaces(1 + rng.int(2)) + comment(rng) : '') + (rng.chance(0.1) ? ' ' : '');
  const noise = (indent: number) => {
    while (rng.chance(0.12)) lines.push(rng.chance(0.5) ? spaces(rng.int(3)) : spaces(rng.pick([0, indent, indent + 1, indent + 2, indent + 4, rng.int(8)])) + comment(rng));
  };
  const step = () => rng.pick([1, 2, 2, 2, 3, 4]);

  // Appends `prefix` + a node at `indent`: the first line of a collection may share `prefix`'s line.
  const node = (prefix: string, indent: number, depth: number, compactAllowed: boolean): void => {
    const kind = depth > 4 ? 2 : rng.int(depth === 0 ? 2 : 4);
    if (kind >= 2 || (depth === 0 && kind === 1 && rng.chance(0.3))) {
      // scalar (or empty) value on the prefix's line, or on its own line
      if (rng.chance(0.15)) lines.push(prefix.trimEnd() + tail());
      else if (rng.chance(0.08)) {
        lines.push(prefix.trimEnd());
        lines.push(spaces(indent) + scalar(rng, clean));
      } else lines.push(prefix + scalar(rng, clean) + tail());
      return;
    }
    const isMap = kind === 0;
    const count = 1 + rng.int(4);
    for (let i = 0; i < count; i++) {
      const first = i === 0;
      if (!first) noise(indent);
      // `- key: value` is read by the fast path; `- - item` is not (so only when not clean)
      const lead = first && compactAllowed && prefix !== '' && (isMap || !clean) && rng.chance(0.6) ? prefix : spaces(indent);
      if (first && lead !== prefix && prefix !== '') lines.push(prefix.trimEnd() + tail());
      const leadIndent = lead === prefix ? prefix.length : indent;
      if (isMap) {
        const key = scalar(rng, clean, true) + rng.pick([':', ':', ':', ' :']);
        if (rng.chance(0.5)) node(`${lead}${key} `, leadIndent + step(), depth + 1, false);
        else {
          // value on the following lines (or a sequence at the key's own indent)
          lines.push(lead + key + tail());
          noise(leadIndent);
          const same = rng.chance(0.3);
          seqOrMap(same ? leadIndent : leadIndent + step(), depth + 1, same);
        }
      } else {
        const dash = rng.pick(['- ', '- ', '-  ', '-   ']);
        if (rng.chance(0.75)) node(lead + dash, indent + dash.length, depth + 1, true);
        else {
          lines.push((lead + '-').trimEnd() + tail());
          noise(indent);
          seqOrMap(indent + step(), depth + 1, false);
        }
      }
      // later keys of a compact mapping line up with its first
      if (first && lead === prefix) indent = leadIndent;
    }
  };
  const seqOrMap = (indent: number, depth: number, seqOnly: boolean) => {
    if (rng.chance(0.1)) return; // nothing: an empty value
    if (seqOnly || rng.chance(0.4)) {
      const count = 1 + rng.int(3);
      for (let i = 0; i < count; i++) {
        if (i > 0) noise(indent);
        const dash = rng.pick(['- ', '- ', '-  ']);
        node(spaces(indent) + dash, indent + dash.length, depth + 1, true);
      }
    } else node(spaces(indent), indent, depth, false);
  };

  noise(0);
  node(spaces(rng.chance(0.1) ? 1 + rng.int(2) : 0), 0, 0, false);
  noise(0);
  let text = lines.join('\n') + (rng.chance(0.7) ? '\n' : '');
  // Damage: a few random edits with characters that matter to YAML.
  const edits = !clean && rng.chance(0.6) ? 1 + rng.int(3) : 0;
  for (let i = 0; i < edits && text.length > 0; i++) {
    const at = rng.int(text.length);
    const what = rng.int(3);
    const ch = rng.pick([' ', '\n', ':', '-', '#', '"', "'", 'x', '\t', '[', '{', '&', '*', '!', '|', '\r', '  ', '- ', ': ']);
    if (what === 0) text = text.slice(0, at) + text.slice(at + 1);
    else if (what === 1) text = text.slice(0, at) + ch + text.slice(at);
    else text = text.slice(0, at) + ch + text.slice(at + 1);
  }
  return text;
}

describe('parseYamlFast', () => {
  it('gives exactly what the yaml package gives, or stands aside (fuzzed block documents)', () => {
    let accepted = 0;
    let runs = 0;
    fc.assert(
      fc.property(fc.integer(), (seed) => {
        runs++;
        if (expectSameAsFull(document(random(seed)))) accepted++;
      }),
      { numRuns: 3000 },
    );
    // The generator aims at the fast path's edges; a good share of documents must still be
    // inside it (about 21%), or the comparison above would be checking little.
    expect(accepted / runs).toBeGreaterThan(0.1);
  });

  it('gives exactly what the yaml package gives, or stands aside (random short texts)', () => {
    const unit = fc.constantFrom('a', 'b', '1', ' ', ' ', '\n', '\n', ':', ': ', '- ', '-', '#', ' #', "'", '"', '\\', '.', '~', 'e', 'null', 'true', '0x', '[', '{', ',', '  ', '[]', '{}', ']', '}');
    let accepted = 0;
    fc.assert(
      fc.property(fc.string({ unit, maxLength: 40 }), (text) => {
        if (expectSameAsFull(text)) accepted++;
      }),
      { numRuns: 3000 },
    );
    expect(accepted).toBeGreaterThan(100);
  });

  it('gives exactly what the yaml package gives for yaml.stringify output of arbitrary data', () => {
    let accepted = 0;
    fc.assert(
      // lineWidth 0 is the studio's formatting (components/studio/document-format.ts): no folding.
      fc.property(fc.dictionary(fc.string(), fc.jsonValue({ maxDepth: 4 }), { minKeys: 1 }), fc.constantFrom(80, 0), (data, lineWidth) => {
        if (expectSameAsFull(stringify(data, { lineWidth }))) accepted++;
      }),
      { numRuns: 500 },
    );
    expect(accepted).toBeGreaterThan(150);
  });

  it('accepts a surface as yaml.stringify writes it, with the same value and ranges', () => {
    const surface = {
      id: 'support',
      version: '1.0.0',
      tools: Array.from({ length: 30 }, (_, i) => ({
        name: `tool_${i}`,
        description: `Does thing ${i}: carefully, #${i}.`,
        parameters: { type: 'object', required: ['path'], properties: { path: { type: 'string' }, depth: { type: 'integer', minimum: -1, maximum: 1.5 } } },
        annotations: { side_effect_level: 'read_only', idempotent: i % 2 === 0, deprecated: null, aliases: { p: 'path' } },
      })),
      policy: { tools: ['tool_*', 'svc?.*'], side_effect_ceiling: 'external' },
    };
    expect(expectSameAsFull(stringify(surface))).toBe(true);
  });

  it.each([
    ['hand-written YAML with comments, quotes and blank lines', "# surface\nid: support   # the id\nversion: '1.0.0'\n\ntools:\n  # first\n  - name: \"a\\tb\"\n    executor: host\n\n  - name: c\n# trailing\n"],
    ['a sequence at its key’s indent', 'tools:\n- a\n- b\npolicy: 1\n'],
    ['an indented root mapping', '  a: 1\n  b:\n    - x\n'],
    ['empty values', 'a:\nb: ~\nc:\n  -\n  - \n'],
    ['numbers, booleans and nulls of the core schema', 'a: 0o17\nb: 0x1F\nc: -0\nd: .inf\ne: 1.50\nf: True\ng: NULL\nh: 1e3\n'],
    ['keys of other types, as strings', '1: a\ntrue: b\n~: c\n1.5: d\n'],
    ['__proto__ as an ordinary key', '__proto__:\n  polluted: true\n'],
    ['empty flow collections', 'required: []\nproperties: {}  # none\nitems:\n  - []\n  - {}\n'],
    ['one-line flow sequences of scalars', "required: [tenant_id, 'target id', \"x\"]\nenum: [ 1, true, ~ ]  # c\nitems:\n  - [a]\n"],
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
