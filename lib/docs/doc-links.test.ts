import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

// The README and docs/ name files, scripts and sections that move as the code does; these checks
// turn a stale pointer into a failing test instead of a reader's dead end.

const root = path.join(import.meta.dirname, '..', '..');
const docs = [
  'README.md',
  ...readdirSync(path.join(root, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`),
];
const read = (file: string) => readFileSync(path.join(root, file), 'utf8');
const scripts = new Set(Object.keys((JSON.parse(read('package.json')) as { scripts: Record<string, string> }).scripts));

/** Repository folders whose paths the docs name in backticks. */
const REPO_PATH = /^(lib|app|components|scripts|bench|e2e|prisma|docs)\//;
/** Placeholders and patterns (`<kind>`, `*`, `{id}`, `…`) name no one file. */
const NOT_A_PATH = /[<>*{}…\s]|\.\.\./;

/** The text outside fenced code blocks (``` or ~~~, possibly indented). */
function prose(text: string): string {
  let fence: string | null = null;
  const kept: string[] = [];
  for (const line of text.split('\n')) {
    const marker = /^\s*(`{3,}|~{3,})/.exec(line)?.[1];
    if (fence === null && marker) fence = marker;
    else if (fence !== null && marker !== undefined && marker[0] === fence[0] && marker.length >= fence.length) fence = null;
    else if (fence === null) kept.push(line);
  }
  return kept.join('\n');
}

const CODE_SPAN = /(?<!`)(`+)(?!`)([\s\S]*?[^`])\1(?!`)/g;
const codeSpans = (text: string) => [...prose(text).matchAll(CODE_SPAN)].map((m) => (m[2] ?? '').trim());
const links = (text: string) =>
  [
    ...prose(text)
      .replace(CODE_SPAN, '')
      .matchAll(/\[[^\]]*\]\(([^)\s]+)\)/g),
  ].map((m) => m[1] ?? '');

/** GitHub's heading anchors: lowercase, punctuation other than `-` and `_` dropped, spaces to `-`. */
function anchors(text: string): Set<string> {
  const seen = new Map<string, number>();
  const out = new Set<string>();
  for (const line of prose(text).split('\n')) {
    const heading = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line)?.[1];
    if (heading === undefined) continue;
    const base = heading
      .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\p{M}\p{Pc} -]/gu, '')
      .replace(/ /g, '-');
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    out.add(count === 0 ? base : `${base}-${count}`);
  }
  return out;
}

describe('docs pointers', () => {
  it('relative links resolve to existing files and headings', () => {
    const broken: string[] = [];
    for (const file of docs) {
      for (const link of links(read(file))) {
        if (/^[a-z][a-z0-9+.-]*:/i.test(link)) continue;
        const [target = '', anchor] = link.split('#');
        const resolved = target === '' ? file : path.posix.join(path.posix.dirname(file), target);
        if (!existsSync(path.join(root, resolved))) broken.push(`${file}: ${link} (no ${resolved})`);
        else if (anchor && resolved.endsWith('.md') && !anchors(read(resolved)).has(anchor))
          broken.push(`${file}: ${link} (no heading #${anchor})`);
      }
    }
    expect(broken).toEqual([]);
  });

  it('every `npm run <script>` names a script in package.json', () => {
    const missing: string[] = [];
    for (const file of docs) {
      for (const m of read(file).matchAll(/npm run ([A-Za-z0-9:_-]+)/g))
        if (!scripts.has(m[1] ?? '')) missing.push(`${file}: npm run ${m[1]}`);
    }
    expect(missing).toEqual([]);
  });

  it('every backticked repository path exists', () => {
    const missing: string[] = [];
    for (const file of docs) {
      for (const span of codeSpans(read(file))) {
        if (!REPO_PATH.test(span) || NOT_A_PATH.test(span)) continue;
        if (!existsSync(path.join(root, span))) missing.push(`${file}: ${span}`);
      }
    }
    expect(missing).toEqual([]);
  });

  it('the README stays a front door (at most 10 KB; the reference lives in docs/)', () => {
    expect(statSync(path.join(root, 'README.md')).size).toBeLessThanOrEqual(10 * 1024);
  });
});
