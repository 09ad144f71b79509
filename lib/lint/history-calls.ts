import { Environment, type ASTNode } from '@marcbachmann/cel-js';
import { ARGUMENT_PATH_PATTERN } from '../contracts/contract-schema';
import { DECISIONS } from '../decisions';
import { HISTORY_FUNCTIONS, isHistoryFunction, parseHistoryCall, type HistoryFunction } from '../history/history-query';
import { isHistoryScope, parseWindow } from '../history/history-terms';
import { TOOL_PATTERN_PATTERN } from '../policies/policy-schema';

/**
 * The `history.*` calls in a policy rule's `when`, read for the linter: what is wrong with each
 * (at the characters it is about, where the compiler only says "type error"), and the tools
 * and argument paths each valid one reads, for checking them against the tools' contracts.
 * Offsets are into the expression text.
 */

export interface HistoryCallProblem {
  message: string;
  start: number;
  end: number;
}

export interface HistoryPathUse {
  fn: 'sum' | 'called_with';
  tools: string[];
  path: string;
  start: number;
  end: number;
}

export interface HistoryCallsFound {
  problems: HistoryCallProblem[];
  paths: HistoryPathUse[];
}

// Parsing only: the type check is the compiler's (lib/contracts/compile-conditions.ts).
const parser = new Environment({ homogeneousAggregateLiterals: false, limits: { maxAstNodes: 2000, maxDepth: 64 } })
  .registerVariable('args', 'map')
  .registerVariable('context', 'map')
  .registerVariable('history', 'dyn');

const FUNCTIONS = Object.keys(HISTORY_FUNCTIONS).map((fn) => `history.${fn}`);
const NONE: HistoryCallsFound = { problems: [], paths: [] };

// The studio lints on every keystroke and three rules read the same conditions.
const memo = new Map<string, HistoryCallsFound>();

/** What the `history.*` calls of one expression ask, and what is wrong with them; nothing when it does not parse. */
export function historyCallsIn(expression: string): HistoryCallsFound {
  const hit = memo.get(expression);
  if (hit) return hit;
  let found = NONE;
  if (expression.includes('history')) {
    try {
      found = analyse(parser.parse(expression).ast);
    } catch {
      // Not CEL: POLICY_CONDITION_INVALID says why.
    }
  }
  if (memo.size >= 2000) memo.clear();
  memo.set(expression, found);
  return found;
}

function analyse(ast: ASTNode): HistoryCallsFound {
  const problems: HistoryCallProblem[] = [];
  const paths: HistoryPathUse[] = [];
  const stack: unknown[] = [ast];
  while (stack.length > 0) {
    const current = stack.pop();
    if (Array.isArray(current)) {
      stack.push(...(current as unknown[]));
      continue;
    }
    if (!isNode(current)) continue;
    const at = (node: ASTNode) => ({ start: node.start, end: node.end });
    if (current.op === 'rcall' && isHistory(current.args[1])) {
      const name = String(current.args[0]);
      const args = current.args[2] as ASTNode[];
      stack.push(...args);
      if (!isHistoryFunction(name)) {
        problems.push({ message: unknownFunction(name), ...at(current) });
        continue;
      }
      const literals = args.map(literalOf);
      const variable = literals.findIndex((value) => value === undefined);
      if (variable >= 0 && expectedArguments(name).includes(args.length)) {
        problems.push({
          message: `history.${name}: argument ${variable + 1} must be written out (a string or a list of strings), not computed: the history a policy keeps is fixed when it is published.`,
          ...at(args[variable]!),
        });
        continue;
      }
      const parsed = parseHistoryCall(name, variable >= 0 ? args.map(() => '') : literals);
      if (!parsed.ok) {
        const index = offendingArgument(name, literals);
        problems.push({ message: parsed.message, ...at(index === null ? current : args[index]!) });
        continue;
      }
      if (name === 'sum' || name === 'called_with') {
        const tools = strings(literals[0]) ?? [];
        const pathNode = args[1]!;
        const pathNodes = pathNode.op === 'list' ? (pathNode.args as ASTNode[]) : [pathNode];
        for (const node of pathNodes) paths.push({ fn: name, tools, path: String(node.args), ...at(node) });
      }
      continue;
    }
    if ((current.op === '.' || current.op === '.?') && isHistory(current.args[0])) {
      const name = String(current.args[1]);
      problems.push({
        message: isHistoryFunction(name) ? `history.${name} is a function: ${HISTORY_FUNCTIONS[name]}.` : unknownFunction(name),
        ...at(current),
      });
      continue;
    }
    // Unary operators hold their operand directly, the others an array of them.
    if (Array.isArray(current.args)) stack.push(...(current.args as unknown[]));
    else if (isNode(current.args)) stack.push(current.args);
  }
  if (problems.length === 0 && paths.length === 0) return NONE;
  // The walk pops from a stack: put findings back in reading order.
  problems.sort((a, b) => a.start - b.start);
  paths.sort((a, b) => a.start - b.start);
  return { problems, paths };
}

function unknownFunction(name: string): string {
  return `history.${name.slice(0, 40)} is not a history function: use ${FUNCTIONS.slice(0, -1).join(', ')} or ${FUNCTIONS.at(-1)}.`;
}

function expectedArguments(fn: HistoryFunction): number[] {
  return fn === 'count' ? [3, 4] : fn === 'sum' || fn === 'called_with' ? [4] : [3];
}

/**
 * Which argument parseHistoryCall's message is about, checked in its order, so the finding
 * underlines that argument; null for the call as a whole (a wrong number of arguments).
 */
function offendingArgument(fn: HistoryFunction, args: readonly unknown[]): number | null {
  if (!expectedArguments(fn).includes(args.length)) return null;
  const tools = strings(args[0]);
  if (!tools || tools.length > 50 || tools.some((t) => t.length === 0 || t.length > 128 || !TOOL_PATTERN_PATTERN.test(t))) return 0;
  const withPaths = fn === 'sum' || fn === 'called_with';
  const scope = withPaths ? 2 : 1;
  if (!isHistoryScope(args[scope])) return scope;
  const window = args[scope + 1];
  if (typeof window !== 'string' || !parseWindow(window).ok) return scope + 1;
  const decision = args[scope + 2];
  if (decision !== undefined && !(typeof decision === 'string' && (DECISIONS as readonly string[]).includes(decision))) return scope + 2;
  if (withPaths) {
    const paths = strings(args[1]);
    if (!paths || paths.length > 10 || (fn === 'sum' && paths.length !== 1)) return 1;
    if (paths.some((p) => p.length > 256 || !ARGUMENT_PATH_PATTERN.test(p))) return 1;
  }
  return null;
}

function strings(value: unknown): string[] | null {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value) && value.length > 0 && value.every((v) => typeof v === 'string')) return value as string[];
  return null;
}

function isNode(value: unknown): value is ASTNode {
  return typeof value === 'object' && value !== null && 'op' in value;
}

function isHistory(node: unknown): boolean {
  return isNode(node) && node.op === 'id' && node.args === 'history';
}

/** A literal's value (a list of them included); undefined for an expression. */
function literalOf(node: ASTNode): unknown {
  if (node.op === 'value') return node.args;
  if (node.op === 'list') {
    const items = (node.args as ASTNode[]).map(literalOf);
    return items.every((item) => item !== undefined) ? items : undefined;
  }
  return undefined;
}
