import type { ASTNode, Environment } from '@marcbachmann/cel-js';
import { isHistoryFunction, parseHistoryCall, type HistoryFunction, type HistoryQuery } from './history-query';
import type { HistoryView } from './history-view';

/**
 * `history.count(…)` and its siblings in policy conditions. The history is a typed variable
 * (`History`), so the type checker refuses `history.anything_else(…)` and wrong argument types;
 * arguments must be literals (checked by `historyQueriesOf`), so a compiled policy knows every
 * series it reads and the evidence commit knows what to count.
 */

/** Seconds since a call that never happened within the window: larger than any window. */
export const NEVER_SECONDS = 9_007_199_254_740_991n;

export class HistoryCel {
  constructor(readonly view: HistoryView | null) {}

  answer(fn: HistoryFunction, args: unknown[]): bigint | number | boolean {
    const query = cachedQuery(fn, args);
    const observed = this.view?.observe(query, true) ?? { count: 0, total: 0, lastAt: 0 };
    switch (fn) {
      case 'count':
        return BigInt(observed.count);
      case 'sum':
        return observed.total;
      case 'called':
        return observed.count > 0;
      case 'called_with':
        return observed.count > 0 && (this.view?.hasValuesAt(query.series.valuePaths ?? []) ?? false);
      case 'seconds_since':
        if (observed.count === 0 || !this.view) return NEVER_SECONDS;
        return BigInt(Math.max(0, Math.floor((this.view.nowMs - observed.lastAt) / 1000)));
    }
  }
}

const queries = new Map<string, HistoryQuery>();

function cachedQuery(fn: HistoryFunction, args: unknown[]): HistoryQuery {
  const key = `${fn}:${JSON.stringify(args)}`;
  const hit = queries.get(key);
  if (hit) return hit;
  const parsed = parseHistoryCall(fn, args);
  // Compilation refused every call that does not parse; reaching here means a bug, and the
  // condition fails closed (the rule denies with AXAG_POLICY_EVALUATION_FAILED).
  if (!parsed.ok) throw new Error(parsed.message);
  if (queries.size > 10_000) queries.clear();
  queries.set(key, parsed.query);
  return parsed.query;
}

const TOOLS = ['string', 'list'] as const;
const SIGNATURES: [HistoryFunction, string][] = [
  ...TOOLS.flatMap((t): [HistoryFunction, string][] => [
    ['count', `History.count(${t}, string, string): int`],
    ['count', `History.count(${t}, string, string, string): int`],
    ['sum', `History.sum(${t}, string, string, string): double`],
    ['seconds_since', `History.seconds_since(${t}, string, string): int`],
    ['called', `History.called(${t}, string, string): bool`],
    ['called_with', `History.called_with(${t}, string, string, string): bool`],
    ['called_with', `History.called_with(${t}, list, string, string): bool`],
  ]),
];

export function registerHistoryFunctions(environment: Environment): Environment {
  let env = environment.registerType('History', { fields: {}, ctor: HistoryCel }).registerVariable('history', 'History');
  for (const [fn, signature] of SIGNATURES) {
    env = env.registerFunction(signature, (history: HistoryCel, ...args: unknown[]) => history.answer(fn, args));
  }
  return env;
}

export type HistoryQueriesResult = { ok: true; queries: HistoryQuery[] } | { ok: false; message: string };

/** Every history question a parsed condition asks; refuses arguments that are not literals. */
export function historyQueriesOf(ast: ASTNode): HistoryQueriesResult {
  const found: HistoryQuery[] = [];
  const stack: unknown[] = [ast];
  while (stack.length > 0) {
    const current = stack.pop();
    if (Array.isArray(current)) {
      stack.push(...(current as unknown[]));
      continue;
    }
    if (typeof current !== 'object' || current === null || !('op' in current)) continue;
    const node = current as ASTNode;
    if (node.op === 'rcall' && isHistoryReceiver(node.args[1])) {
      const name = String(node.args[0]);
      if (!isHistoryFunction(name)) return { ok: false, message: `history.${name.slice(0, 40)} is not a history function.` };
      const literals: unknown[] = [];
      for (const arg of node.args[2] as ASTNode[]) {
        const value = literalOf(arg);
        if (value === undefined)
          return { ok: false, message: `history.${name}: every argument must be a literal (a string or a list of strings).` };
        literals.push(value);
      }
      const parsed = parseHistoryCall(name, literals);
      if (!parsed.ok) return parsed;
      found.push(parsed.query);
    }
    // Unary operators hold their operand directly, the others an array of them.
    if (Array.isArray(node.args)) stack.push(...(node.args as unknown[]));
    else if (typeof node.args === 'object' && node.args !== null) stack.push(node.args);
  }
  return { ok: true, queries: found };
}

function isHistoryReceiver(node: unknown): boolean {
  return typeof node === 'object' && node !== null && (node as ASTNode).op === 'id' && (node as ASTNode).args === 'history';
}

function literalOf(node: ASTNode): unknown {
  if (node.op === 'value') return typeof node.args === 'string' ? node.args : undefined;
  if (node.op === 'list') {
    const items = (node.args as ASTNode[]).map(literalOf);
    return items.every((item) => typeof item === 'string') ? items : undefined;
  }
  return undefined;
}
