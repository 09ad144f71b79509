import { parseYamlFast } from './yaml-fast';
import { MAX_DEPTH, MAX_NODES } from './yaml-fast-test-helpers';

/** Random block YAML documents for fuzzing the fast path at its edges, from a seed that reproduces. */

/** A small deterministic generator (mulberry32), so that a failing seed reproduces. */
export function random(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (n: number) => Math.floor(next() * n);
  const pick = <T>(items: readonly T[]): T => items[int(items.length)] as T;
  return { next, int, pick, chance: (p: number) => next() < p };
}

type Random = ReturnType<typeof random>;

/** Scalar texts chosen to sit on every boundary of the core schema and of plain-scalar syntax. */
const WORDS = [
  'a',
  'b',
  'foo bar',
  'x:y',
  'a#b',
  'svc1.op_2',
  '-x',
  '-1',
  '+1',
  '0',
  '-0',
  '007',
  '0o17',
  '0o8',
  '0x1F',
  '0xg',
  '1.5',
  '1.',
  '.5',
  '1e3',
  '1E-3',
  '.e3',
  '.inf',
  '-.Inf',
  '+.INF',
  '.nan',
  '.NaN',
  '.NAN',
  'nan',
  'inf',
  'null',
  'Null',
  'NULL',
  'nULL',
  '~',
  '~x',
  'true',
  'True',
  'TRUE',
  'tRue',
  'false',
  'False',
  'FALSE',
  'fals',
  'yes',
  'no',
  'on',
  'off',
  'y',
  'n',
  'f',
  't',
  'N',
  '1_000',
  '0b11',
  '12:30',
  '12:30:00',
  'http://x.y/z?q=1#f',
  '__proto__',
  'constructor',
  'toString',
  '<<',
  '{a}',
  'a,b',
  '[x]',
  'x]',
  'x}',
  'é',
  '日本',
  '😀',
  'a  b',
  '-',
  '--',
  '--x',
  '---',
  '...',
  '?',
  '?x',
  ':',
  ':x',
  'a:',
  'a: b',
  'a :b',
  '#x',
  '@x',
  '`x',
  '%x',
  '!x',
  '!!str x',
  '&x',
  '*x',
  '|',
  '>',
  'a | b',
  'a > b',
  "it's",
  'say "hi"',
  '1.0.0',
  '9007199254740993',
  '1e400',
  '-1e400',
  '[]',
  '{}',
  '[ ]',
  '{ }',
  '[]x',
  '[],',
  '{}:',
  '[] [',
  '[a, b]',
  '[ \'x\', "y" , 1 ]',
  '[1,2]',
  '[a b,c]',
  '[a,]',
  '[,a]',
  '[a,,b]',
  '[-]',
  '[-1, -x]',
  '[a:b]',
  '[a: b]',
  '[a#b]',
  '[a #b]',
  '[[a]]',
  '[{}]',
  '[a]]',
  '[a] b',
  '[~, null, .5, 0x1F]',
  "['it''s']",
  '["a\\tb"]',
  '[a, {b}]',
  '[ ]x',
  '0.1',
  '+0.5',
  '-.5',
  '123456789012345678901234567890',
  'ab\u00a0cd',
  '\u00a0',
  'x\u00a0#y',
  'a\\b',
  'tab\there',
  'cr\rhere',
  'Ω≈ç',
  'true ',
  ' x',
];

const KEYS = [
  'id',
  'name',
  'type',
  'tools',
  'true',
  'null',
  '~',
  '1',
  '01',
  '1.0',
  '0x1',
  '-1',
  '.inf',
  '.nan',
  'a b',
  'a:b',
  'a#b',
  '__proto__',
  'constructor',
  'hasOwnProperty',
  '<<',
  '$ref',
  'application/json',
  '/path/{id}',
  'x-y',
  '-x',
  '?x',
  ':x',
  '',
  'é',
  '日本',
  'k ',
  'k#',
  '"q"',
  'a\u00a0b',
];

function plainOrQuoted(rng: Random, text: string, key: boolean, clean: boolean): string {
  const style = rng.int(10);
  if (style < 6) return text;
  if (style < 8) return `'${text.replace(/'/g, "''")}'`;
  const escapes = [
    '\\n',
    '\\t',
    '\\"',
    '\\\\',
    '\\/',
    '\\x41',
    '\\u00e9',
    '\\U0001F600',
    '\\0',
    '\\e',
    '\\N',
    '\\_',
    '\\ ',
    '\\ud83d\\ude00',
  ];
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
  const chars = [
    'a',
    'b',
    'e',
    'n',
    'u',
    'l',
    't',
    'r',
    'x',
    '0',
    '1',
    '9',
    ' ',
    ' ',
    ':',
    '-',
    '#',
    "'",
    '"',
    '\\',
    '.',
    '~',
    '+',
    ',',
    '[',
    ']',
    '{',
    '}',
    '?',
    '&',
    '*',
    '!',
    '|',
    '>',
    '%',
    '@',
    '`',
    '\u00a0',
    'é',
    '😀',
  ];
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
export function document(rng: Random): string {
  // Half the documents keep to what the fast path reads, so that it is compared often; the
  // rest wander off its edges.
  const clean = rng.chance(0.5);
  const lines: string[] = [];
  const spaces = (n: number) => ' '.repeat(Math.max(0, n));
  const tail = () => (rng.chance(0.15) ? spaces(1 + rng.int(2)) + comment(rng) : '') + (rng.chance(0.1) ? ' ' : '');
  const noise = (indent: number) => {
    while (rng.chance(0.12))
      lines.push(
        rng.chance(0.5) ? spaces(rng.int(3)) : spaces(rng.pick([0, indent, indent + 1, indent + 2, indent + 4, rng.int(8)])) + comment(rng),
      );
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
