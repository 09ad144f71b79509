import { ARGUMENT_PATH_PATTERN } from '../contracts/contract-schema';
import { DECISIONS, type Decision } from '../decisions';
import { TOOL_PATTERN_PATTERN } from '../policies/policy-schema';
import { bucketSecondsFor, HISTORY_SCOPES, isHistoryScope, parseWindow, type HistoryScope } from './history-terms';
import { defineSeries, type Series } from './series';

/**
 * One question a policy asks of a call's history: a series, read under a scope over a window.
 * Limits ask one each; every `history.*` call in a rule's condition asks one, fixed when the
 * policy is compiled (its arguments must be literals, so the series to keep are known).
 */
export interface HistoryQuery {
  /** Identifies the question: series, scope and window. */
  key: string;
  series: Series;
  scope: HistoryScope;
  windowSeconds: number;
}

export function historyQuery(series: Omit<Series, 'id' | 'bucketSeconds'>, scope: HistoryScope, windowSeconds: number): HistoryQuery {
  const defined = defineSeries({ ...series, bucketSeconds: bucketSecondsFor(windowSeconds) });
  return { key: `${defined.id}:${scope}:${windowSeconds}`, series: defined, scope, windowSeconds };
}

/** The CEL history functions, with what each takes after the tools. */
export const HISTORY_FUNCTIONS = {
  count: 'history.count(tools, scope, window) or history.count(tools, scope, window, decision): int',
  sum: 'history.sum(tools, path, scope, window): double',
  seconds_since: 'history.seconds_since(tools, scope, window): int',
  called: 'history.called(tools, scope, window): bool',
  called_with: 'history.called_with(tools, paths, scope, window): bool',
} as const;
export type HistoryFunction = keyof typeof HISTORY_FUNCTIONS;

export function isHistoryFunction(name: string): name is HistoryFunction {
  return Object.prototype.hasOwnProperty.call(HISTORY_FUNCTIONS, name);
}

export type HistoryCallParse = { ok: true; query: HistoryQuery } | { ok: false; message: string };

const strings = (value: unknown): string[] | null => {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value) && value.length > 0 && value.every((v) => typeof v === 'string')) return value as string[];
  return null;
};

/**
 * The query a `history.<fn>(…)` call asks, from its (literal) arguments: the same function at
 * compile time, where a bad argument is a lint finding, and at evaluation time.
 */
export function parseHistoryCall(fn: HistoryFunction, args: readonly unknown[]): HistoryCallParse {
  const bad = (message: string): HistoryCallParse => ({ ok: false, message: `history.${fn}: ${message}` });
  const expected = fn === 'count' ? [3, 4] : fn === 'sum' || fn === 'called_with' ? [4] : [3];
  if (!expected.includes(args.length)) return bad(`takes ${expected.join(' or ')} arguments: ${HISTORY_FUNCTIONS[fn]}.`);
  const tools = strings(args[0]);
  if (!tools || tools.length > 50) return bad('the first argument is a tool id or pattern, or a list of them.');
  const badTool = tools.find((t) => t.length === 0 || t.length > 128 || !TOOL_PATTERN_PATTERN.test(t));
  if (badTool !== undefined) return bad(`"${badTool.slice(0, 60)}" is not a tool id or pattern.`);
  const withPaths = fn === 'sum' || fn === 'called_with';
  const rest = withPaths ? args.slice(2) : args.slice(1);
  const [scope, window, decision] = rest;
  if (!isHistoryScope(scope)) return bad(`the scope must be one of ${HISTORY_SCOPES.map((s) => `"${s}"`).join(', ')}.`);
  if (typeof window !== 'string') return bad('the window must be a string such as "1h".');
  const parsedWindow = parseWindow(window);
  if (!parsedWindow.ok) return bad(parsedWindow.message);
  let counts: 'counted' | Decision = 'counted';
  if (decision !== undefined) {
    if (typeof decision !== 'string' || !(DECISIONS as readonly string[]).includes(decision))
      return bad(`the decision must be one of ${DECISIONS.join(', ')}.`);
    counts = decision as Decision;
  }
  let sumPath: string | null = null;
  let valuePaths: string[] | null = null;
  if (withPaths) {
    const paths = strings(args[1]);
    if (!paths || paths.length > 10 || (fn === 'sum' && paths.length !== 1))
      return bad(
        fn === 'sum' ? 'the second argument is one argument path.' : 'the second argument is an argument path or a list of up to 10.',
      );
    const badPath = paths.find((p) => p.length > 256 || !ARGUMENT_PATH_PATTERN.test(p));
    if (badPath !== undefined) return bad(`"${badPath.slice(0, 60)}" is not a dotted argument path.`);
    if (fn === 'sum') sumPath = paths[0] as string;
    else valuePaths = paths;
  }
  return { ok: true, query: historyQuery({ tools, counts, sumPath, valuePaths }, scope, parsedWindow.seconds) };
}
