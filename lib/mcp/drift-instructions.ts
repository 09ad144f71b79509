import { classifyCodePoint, hiddenKindWords, type HiddenCharacterKind } from '../approvals/reveal-hidden-characters';
import { scanPrompt } from '../lint/prompt-scan';
import { childPath, isObject, own, type DriftFindings } from './drift-findings';
import type { UpstreamToolDefinition } from './tool-definition';

/**
 * Finds text addressed to the model that an upstream's new definition has and the pinned one
 * had not: imperative or injection-like phrases, calls in call syntax (`word(`, found by the
 * surface prompt linter's scanner), and hidden characters. Scanned: the tool's title and
 * description, its annotations' title, and every `title` and `description` string inside its
 * schemas, all of which a client shows the model.
 *
 * Only what is new counts: each phrase, call and hidden character is counted over all texts of
 * either definition, and reported when the new definition has more of it (so text that only
 * moved is not reported). Matching is a case-insensitive substring search over a fixed list,
 * after NFKC (fullwidth letters read as ASCII), with hidden characters removed (so a zero-width
 * space cannot split a phrase) and whitespace runs made one space. No regular expression is
 * built from the text; every pass is linear, over bounded text. Text past the bounds is not
 * scanned, so a changed definition with such text is reported for a person to read.
 */

export const MAX_SCANNED_TEXT = 64 * 1024;
const MAX_TEXTS = 2_000;
const MAX_TOTAL_TEXT = 512 * 1024;
const MAX_WALK_DEPTH = 64;
const MAX_WALK_NODES = 100_000;
// How far after "send" a "to" still makes "send … to".
const SEND_WINDOW = 80;

/** Phrases addressed to the model, lower case, as they read after normalization. */
export const INSTRUCTION_PHRASES = [
  // Overriding what the model was told.
  'ignore previous',
  'ignore all previous',
  'ignore the previous',
  'ignore all instructions',
  'ignore any instructions',
  'ignore your instructions',
  'ignore the above',
  'disregard previous',
  'disregard all',
  'disregard the above',
  'disregard your',
  'forget previous',
  'forget all',
  'forget your instructions',
  'override your',
  'previous instructions',
  'new instructions',
  'system prompt',
  'system message',
  'developer message',
  // Imperatives aimed at the model.
  'you must',
  'you have to',
  'you need to',
  'you should',
  'you are required',
  'you will now',
  'must always',
  'must first',
  'always call',
  'always use',
  'always invoke',
  'always run',
  'always include',
  'always pass',
  'always send',
  'never tell',
  'never mention',
  'never reveal',
  'never inform',
  'do not tell',
  "don't tell",
  'do not mention',
  "don't mention",
  'do not inform',
  "don't inform",
  'do not reveal',
  "don't reveal",
  'do not ask the user',
  'without telling',
  'without asking',
  'without informing',
  'keep this secret',
  'before using this tool',
  'before calling this tool',
  'before using any',
  'after using this tool',
  'after calling this tool',
  'call this tool first',
  'when this tool is',
  'instead of calling',
  'other tool',
  // Markup that imitates a prompt's structure.
  '<important',
  '</important',
  '<system',
  '</system',
  '<instructions',
  '[system',
  '[inst]',
  '<|im_start|>',
  '<|system|>',
  // Secrets that poisoned tool descriptions ask models to read.
  'id_rsa',
  '~/.ssh',
  '~/.aws',
  '~/.cursor',
  'mcp.json',
  'private key',
  'exfiltrate',
  // A linter directive that hides text from the prompt scan.
  'harn-tool-surface',
] as const;

/** Verbs that make "send … to" when the word "to" follows within SEND_WINDOW characters. */
const SENDING_VERBS = ['send', 'forward', 'upload', 'transmit', 'leak'];

interface Text {
  path: string;
  raw: string;
}

interface Facts {
  path: string;
  /** Occurrences by key: `phrase:…`, `call:…`, `hidden`. */
  counts: Map<string, number>;
  kinds: Set<HiddenCharacterKind>;
}

export function findNewInstructions(pinned: UpstreamToolDefinition, upstream: UpstreamToolDefinition, sink: DriftFindings): void {
  const before = collectTexts(pinned);
  const after = collectTexts(upstream);
  const old = tally(before.texts.map(analyse));
  const now = after.texts.map(analyse);
  // What is new, by the text it was found in and kind, so one text's several phrases are one finding.
  const found = new Map<Facts, { phrases: string[]; calls: string[]; hidden: number }>();
  for (const [key, byPath] of tally(now)) {
    const oldByPath = old.get(key);
    const added = sum(byPath) - sum(oldByPath);
    if (added <= 0) continue;
    // Where the new text has more than the old had at the same place (one does, unless long paths were cut alike).
    const facts =
      now.find((f) => (f.counts.get(key) ?? 0) > (oldByPath?.get(f.path) ?? 0)) ?? (now.find((f) => f.counts.has(key)) as Facts);
    let entry = found.get(facts);
    if (!entry) found.set(facts, (entry = { phrases: [], calls: [], hidden: 0 }));
    if (key === 'hidden') entry.hidden = added;
    else if (key.startsWith('call:')) entry.calls.push(`\`${key.slice(5)}(\``);
    else entry.phrases.push(`"${key.slice(7)}"`);
  }
  for (const facts of now) {
    const entry = found.get(facts);
    if (!entry) continue;
    if (entry.phrases.length > 0)
      sink.add('instructions_added', facts.path, `Now says ${list(entry.phrases)}: text addressed to the model.`);
    if (entry.calls.length > 0)
      sink.add('instructions_added', facts.path, `Now mentions calling ${list(entry.calls)}: a tool call in the text.`);
    if (entry.hidden > 0) {
      const kinds = [...facts.kinds].map(hiddenKindWords).join(', ');
      sink.add(
        'instructions_added',
        facts.path,
        `${entry.hidden} hidden character(s) added (${kinds}): text a model reads and a person does not see.`,
      );
    }
  }
  if (after.cut !== null) sink.add('instructions_added', after.cut.path, `${after.cut.why}: not scanned, so read it yourself.`);
}

function list(items: string[]): string {
  return items.length > 8 ? `${items.slice(0, 8).join(', ')} and ${items.length - 8} more` : items.join(', ');
}

function sum(byPath: Map<string, number> | undefined): number {
  let total = 0;
  for (const n of byPath?.values() ?? []) total += n;
  return total;
}

function tally(all: Facts[]): Map<string, Map<string, number>> {
  const out = new Map<string, Map<string, number>>();
  for (const facts of all) {
    for (const [key, n] of facts.counts) {
      let byPath = out.get(key);
      if (!byPath) out.set(key, (byPath = new Map()));
      byPath.set(facts.path, (byPath.get(facts.path) ?? 0) + n);
    }
  }
  return out;
}

/** Title, description, annotations' title, and every schema `title`/`description` string, bounded. */
function collectTexts(definition: UpstreamToolDefinition): { texts: Text[]; cut: { path: string; why: string } | null } {
  const texts: Text[] = [];
  let total = 0;
  let cut: { path: string; why: string } | null = null;
  const stop = (path: string, why: string) => (cut ??= { path, why });
  const push = (path: string, raw: string) => {
    if (texts.length >= MAX_TEXTS || total >= MAX_TOTAL_TEXT)
      return stop(path, `More than ${MAX_TEXTS} texts or ${MAX_TOTAL_TEXT} characters`);
    let limit = Math.min(MAX_SCANNED_TEXT, MAX_TOTAL_TEXT - total);
    if (raw.length > limit) {
      stop(path, `Text longer than ${limit} characters`);
      // Never end on half a surrogate pair, which would read as a hidden character.
      if (limit > 0 && raw.charCodeAt(limit - 1) >= 0xd800 && raw.charCodeAt(limit - 1) <= 0xdbff) limit -= 1;
    }
    const text = raw.slice(0, limit);
    total += text.length;
    texts.push({ path, raw: text });
  };
  for (const key of ['title', 'description'] as const) {
    const value = own(definition, key);
    if (typeof value === 'string') push(key, value);
  }
  const annotationTitle = own(own(definition, 'annotations'), 'title');
  if (typeof annotationTitle === 'string') push('annotations.title', annotationTitle);

  let nodes = 0;
  const stack: { value: unknown; path: string; depth: number }[] = [];
  for (const field of ['outputSchema', 'inputSchema']) stack.push({ value: own(definition, field), path: field, depth: 0 });
  while (stack.length > 0) {
    const { value, path, depth } = stack.pop() as { value: unknown; path: string; depth: number };
    if (typeof value !== 'object' || value === null) continue;
    if (++nodes > MAX_WALK_NODES || depth > MAX_WALK_DEPTH) {
      stop(
        path,
        depth > MAX_WALK_DEPTH ? `Schema nested deeper than ${MAX_WALK_DEPTH} levels` : `More than ${MAX_WALK_NODES} schema nodes`,
      );
      break;
    }
    const entries: [string | number, unknown][] = Array.isArray(value) ? value.map((v, i) => [i, v]) : Object.entries(value);
    for (const [key, child] of entries) {
      if ((key === 'title' || key === 'description') && typeof child === 'string' && isObject(value)) push(childPath(path, key), child);
    }
    // Reversed onto the stack, so texts are read in document order.
    for (let i = entries.length - 1; i >= 0; i--) {
      const [key, child] = entries[i] as [string | number, unknown];
      if (typeof child === 'object' && child !== null) stack.push({ value: child, path: childPath(path, key), depth: depth + 1 });
    }
  }
  return { texts, cut };
}

function analyse(text: Text): Facts {
  const counts = new Map<string, number>();
  const kinds = new Set<HiddenCharacterKind>();
  const add = (key: string, n = 1) => counts.set(key, (counts.get(key) ?? 0) + n);

  // Hidden characters removed (odd spaces become spaces), counting those that hide text.
  const raw = text.raw;
  let visible = '';
  let plainStart = 0;
  let previous: number | null = null;
  for (let i = 0; i < raw.length;) {
    const cp = raw.codePointAt(i) as number;
    const width = cp > 0xffff ? 2 : 1;
    const kind = classifyCodePoint(cp, previous);
    if (kind !== null) {
      visible += raw.slice(plainStart, i) + (kind === 'space' ? ' ' : '');
      plainStart = i + width;
      if (kind !== 'space') {
        add('hidden');
        kinds.add(kind);
      }
    }
    previous = cp;
    i += width;
  }
  visible = (visible + raw.slice(plainStart)).normalize('NFKC');

  const normal = normalize(visible);
  for (const phrase of INSTRUCTION_PHRASES) {
    const n = countPhrase(normal, phrase);
    if (n > 0) add(`phrase:${phrase}`, n);
  }
  for (const verb of SENDING_VERBS) {
    const n = countSending(normal, verb);
    if (n > 0) add(`phrase:${verb} … to`, n);
  }
  // Without backticks and tildes no code fence can open, so a call cannot hide in one.
  for (const word of scanPrompt(visible.replaceAll('`', '').replaceAll('~', '')).words)
    if (word.call) add(`call:${word.text.toLowerCase()}`);
  return { path: text.path, counts, kinds };
}

/** Lower case, curly apostrophes made straight, `*` and `` ` `` dropped (Markdown emphasis), whitespace runs one space. */
function normalize(text: string): string {
  const lower = text.toLowerCase();
  let out = '';
  let space = false;
  for (const ch of lower) {
    if (ch === ' ' || ch === '\n' || ch === '\t' || ch === '\r' || ch === '\f' || ch === '\v') {
      space = true;
      continue;
    }
    if (ch === '*' || ch === '`') continue;
    if (space && out.length > 0) out += ' ';
    space = false;
    out += ch === '\u2019' || ch === '\u2018' ? "'" : ch;
  }
  return out;
}

function isWordChar(c: number): boolean {
  return (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57) || c === 95;
}

/** Occurrences of `phrase` not inside a longer word ("always use" is not in "always useful"). */
function countPhrase(text: string, phrase: string): number {
  const checkStart = isWordChar(phrase.charCodeAt(0));
  const checkEnd = isWordChar(phrase.charCodeAt(phrase.length - 1));
  let n = 0;
  for (let at = text.indexOf(phrase); at !== -1; at = text.indexOf(phrase, at + 1)) {
    const end = at + phrase.length;
    if (checkStart && at > 0 && isWordChar(text.charCodeAt(at - 1))) continue;
    if (checkEnd && end < text.length && isWordChar(text.charCodeAt(end))) continue;
    n += 1;
  }
  return n;
}

/** "send … to": the verb as a word, then the word "to" within the window. */
function countSending(text: string, verb: string): number {
  let n = 0;
  for (let at = text.indexOf(verb); at !== -1; at = text.indexOf(verb, at + 1)) {
    const end = at + verb.length;
    if ((at > 0 && isWordChar(text.charCodeAt(at - 1))) || text.charCodeAt(end) !== 32) continue;
    // A bounded slice, so many verbs without a " to " cost the window each, not the rest of the text.
    if (countPhrase(text.slice(end, end + SEND_WINDOW), ' to') > 0) n += 1;
  }
  return n;
}
