import { setsIntersect, type CodePoints, type PatternNode } from './pattern-syntax';

/**
 * Decides whether a parsed pattern may run on a backtracking engine (V8's `RegExp`) without any
 * input making it slow: a proof, not a heuristic, and deliberately narrow. A pattern this
 * refuses runs on RE2, so refusing too much costs speed only.
 *
 * The proof. A backtracking matcher explores the ways the pattern can consume a prefix of the
 * input; its work grows badly only when some prefix can be consumed in more than one way (that
 * is what `(a+)+`, `(a|a)*` and `\d+\d+` have in common). The pattern's Glushkov automaton has
 * one state per character position; we build its transitions as lists, not sets, so a
 * transition reachable along two routes (nested loops, as in `(a+)+`) appears twice. The
 * pattern is accepted only if
 *  1. no quantifier repeats something that can match the empty string (`(a?)*`, `(a*)+`),
 *  2. no alternation has more than one branch that can match the empty string (`(a?|b?)`),
 *     so every part that matches empty does so in exactly one way;
 *  3. from the start and from every position, the candidate next positions are distinct and
 *     their character sets pairwise disjoint (the end of input, `$`, counting as a character):
 *     the next input character decides the next step, so every prefix is consumed by at most
 *     one path, and the matcher does at most (positions x characters) work per start.
 * Counted repetition `x{m,n}` is checked as if it could always loop or leave (the real automaton
 * has fewer transitions, so a deterministic over-approximation stays deterministic).
 *  4. Every start position is an attempt. Either each top-level branch begins with `^` (later
 *     attempts fail at once) or the pattern matches at most MAX_UNANCHORED_LENGTH characters
 *     (so each attempt is bounded): `[a-z]+$` without `^` is quadratic however deterministic.
 * `^` is only accepted at the start of a top-level branch and `$` only at its end.
 */

export const MAX_UNANCHORED_LENGTH = 64;
/** The determinism check is quadratic in the size of a candidate list; big patterns stay on RE2. */
const MAX_POSITIONS = 256;

export type SafetyVerdict = { safe: true } | { safe: false; reason: string };

type Leaf = Extract<PatternNode, { type: 'chars' | 'end' }>;
type Info = { nullable: boolean; first: Leaf[]; last: Leaf[]; maxLength: number };

class Unsafe extends Error {}

function topLevelBranches(root: PatternNode): PatternNode[][] {
  const branches = root.type === 'alternation' ? root.branches : [root];
  return branches.map((branch) => (branch.type === 'sequence' ? branch.items : [branch]));
}

export function checkPatternSafety(root: PatternNode): SafetyVerdict {
  const branches = topLevelBranches(root);
  const allowedAnchors = new Set<PatternNode>();
  for (const items of branches) {
    if (items[0]?.type === 'start') allowedAnchors.add(items[0]);
    const last = items[items.length - 1];
    if (last?.type === 'end') allowedAnchors.add(last);
  }
  const anchored = branches.every((items) => items[0]?.type === 'start');

  const follow = new Map<Leaf, Leaf[]>();
  const link = (from: readonly Leaf[], to: readonly Leaf[]) => {
    for (const leaf of from) follow.get(leaf)!.push(...to);
  };

  const visit = (node: PatternNode): Info => {
    switch (node.type) {
      case 'chars':
      case 'end':
        if (node.type === 'end' && !allowedAnchors.has(node)) throw new Unsafe('`$` is only accepted at the end of the pattern');
        follow.set(node, []);
        if (follow.size > MAX_POSITIONS) throw new Unsafe(`more than ${MAX_POSITIONS} positions`);
        return { nullable: false, first: [node], last: [node], maxLength: node.type === 'chars' ? 1 : 0 };
      case 'start':
        if (!allowedAnchors.has(node)) throw new Unsafe('`^` is only accepted at the start of the pattern');
        return { nullable: true, first: [], last: [], maxLength: 0 };
      case 'sequence': {
        let acc: Info = { nullable: true, first: [], last: [], maxLength: 0 };
        for (const item of node.items) {
          const info = visit(item);
          link(acc.last, info.first);
          acc = {
            nullable: acc.nullable && info.nullable,
            first: acc.nullable ? [...acc.first, ...info.first] : acc.first,
            last: info.nullable ? [...info.last, ...acc.last] : info.last,
            maxLength: acc.maxLength + info.maxLength,
          };
        }
        return acc;
      }
      case 'alternation': {
        const infos = node.branches.map(visit);
        if (infos.filter((info) => info.nullable).length > 1) throw new Unsafe('two alternatives can both match the empty string');
        return {
          nullable: infos.some((info) => info.nullable),
          first: infos.flatMap((info) => info.first),
          last: infos.flatMap((info) => info.last),
          maxLength: Math.max(...infos.map((info) => info.maxLength)),
        };
      }
      case 'repeat': {
        const body = visit(node.body);
        if (body.nullable) throw new Unsafe('a quantifier repeats something that can match the empty string');
        if (node.max >= 2) link(body.last, body.first);
        return { nullable: node.min === 0, first: body.first, last: body.last, maxLength: node.max * body.maxLength };
      }
    }
  };

  let rootInfo: Info;
  try {
    rootInfo = visit(root);
    assertDeterministic(rootInfo.first, 'the start');
    for (const [, next] of follow) assertDeterministic(next, 'a position');
  } catch (error) {
    if (error instanceof Unsafe) return { safe: false, reason: error.message };
    throw error;
  }
  if (!anchored && !(rootInfo.maxLength <= MAX_UNANCHORED_LENGTH)) {
    return { safe: false, reason: `not anchored with ^ and can match more than ${MAX_UNANCHORED_LENGTH} characters` };
  }
  return { safe: true };
}

const END_OF_INPUT: CodePoints = [-1, -1];
const leafSet = (leaf: Leaf): CodePoints => (leaf.type === 'end' ? END_OF_INPUT : leaf.set);

function assertDeterministic(candidates: readonly Leaf[], where: string): void {
  for (let i = 0; i < candidates.length; i++) {
    for (let j = i + 1; j < candidates.length; j++) {
      const a = candidates[i]!;
      const b = candidates[j]!;
      if (a === b) throw new Unsafe(`${where} can reach the same position along two routes`);
      if (setsIntersect(leafSet(a), leafSet(b))) throw new Unsafe(`${where} has two next positions that accept the same character`);
    }
  }
}
