import { Environment, type ASTNode } from '@marcbachmann/cel-js';
import {
  CONDITION_COST_LIMIT,
  costExceededMessage,
  createCostMeter,
  instrumentConditionCost,
  type CostMeter,
  type CostProbe,
} from './condition-cost';
import type { ContractCondition } from './contract-schema';
import { historyQueriesOf, registerHistoryFunctions } from '../history/history-cel';
import type { HistoryQuery } from '../history/history-query';

/**
 * Pre/postconditions are CEL: non-Turing-complete, side-effect free, and evaluated by a pure
 * interpreter (the library builds no code with eval or `new Function`). Each expression is
 * parsed and type-checked once, at contract compile time. Each evaluation runs on a step budget
 * (condition-cost.ts): one past it fails, and a failed evaluation never holds.
 */

/** `policy`: a policy rule's `when`, which also sees the caller's `history` (lib/history). */
export type ConditionPhase = 'pre' | 'post' | 'policy';

export type ConditionOutcome = { ok: true; holds: boolean } | { ok: false; error: string };

export type CompiledCondition = ContractCondition & {
  /**
   * Evaluates on `meter` when given (to share one budget across several evaluations), else on
   * a budget of its own, CONDITION_COST_LIMIT steps.
   */
  evaluate(activation: Record<string, unknown>, meter?: CostMeter): ConditionOutcome;
  /** The history questions the condition asks (policy conditions only). */
  historyQueries: HistoryQuery[];
};

const environmentOptions = {
  // Mixed literals such as ["a", 1] are legal JSON, so they are legal in conditions too.
  homogeneousAggregateLiterals: false,
  limits: { maxAstNodes: 2000, maxDepth: 64 },
};
// Declaring exactly these variables makes the type checker reject any other identifier.
const preEnvironment = new Environment(environmentOptions).registerVariable('args', 'map').registerVariable('context', 'map');
const policyEnvironment = registerHistoryFunctions(
  new Environment(environmentOptions).registerVariable('args', 'map').registerVariable('context', 'map'),
);
const postEnvironment = new Environment(environmentOptions)
  .registerVariable('args', 'map')
  .registerVariable('context', 'map')
  .registerVariable('result', 'dyn');

// CEL's built-in `matches` runs on the host's backtracking RegExp; a hostile pattern or input
// could stall the validator, and the library does not allow overriding it. Patterns belong in
// the JSON Schema, where they run on RE2.
const REFUSED_FUNCTIONS = new Set(['matches']);

function findRefusedCall(node: ASTNode): string | undefined {
  const stack: unknown[] = [node];
  while (stack.length > 0) {
    const current = stack.pop();
    if (Array.isArray(current)) {
      stack.push(...(current as unknown[]));
      continue;
    }
    if (typeof current !== 'object' || current === null || !('op' in current)) continue;
    const ast = current as ASTNode;
    if ((ast.op === 'call' || ast.op === 'rcall') && REFUSED_FUNCTIONS.has(ast.args[0])) return ast.args[0];
    // Unary operators (`!`, `-`) hold their operand directly, the others an array of them.
    if (Array.isArray(ast.args)) stack.push(...(ast.args as unknown[]));
    else if (typeof ast.args === 'object' && ast.args !== null) stack.push(ast.args);
  }
  return undefined;
}

/**
 * JSON numbers arrive as JS numbers; CEL treats those as doubles, so `args.quantity + 1`
 * would fail with "no such overload: double + int". Integral values become BigInt (CEL int).
 * Objects become Maps: the interpreter tells a map from a message by reading `.constructor`,
 * so a plain object with an own `constructor` key (legal JSON) would break every condition
 * over it, and a Map's keys are only ever its own (`has(args.toString)` is false for `{}`).
 */
export function toCelValue(value: unknown): unknown {
  if (typeof value === 'number') {
    return Number.isSafeInteger(value) ? BigInt(value) : value;
  }
  if (Array.isArray(value)) return value.map(toCelValue);
  if (typeof value === 'object' && value !== null) {
    const out = new Map<string, unknown>();
    for (const key of Object.keys(value)) out.set(key, toCelValue((value as Record<string, unknown>)[key]));
    return out;
  }
  return value;
}

function firstLine(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return (text.split('\n')[0] ?? text).slice(0, 300);
}

export type ConditionCompileResult = { ok: true; condition: CompiledCondition } | { ok: false; message: string };

export function compileCondition(condition: ContractCondition, phase: ConditionPhase): ConditionCompileResult {
  const environment = phase === 'pre' ? preEnvironment : phase === 'policy' ? policyEnvironment : postEnvironment;
  let parsed: ReturnType<Environment['parse']>;
  try {
    parsed = environment.parse(condition.expression);
  } catch (error) {
    return { ok: false, message: `CEL syntax error: ${firstLine(error)}` };
  }
  const refused = findRefusedCall(parsed.ast);
  if (refused !== undefined) {
    return {
      ok: false,
      message: `CEL function "${refused}" is not allowed (backtracking regex); use a JSON Schema \`pattern\` instead.`,
    };
  }
  const checked = parsed.check();
  if (!checked.valid) {
    const variables =
      phase === 'pre' ? '`args`, `context`' : phase === 'policy' ? '`args`, `context`, `history`' : '`args`, `context`, `result`';
    return { ok: false, message: `CEL type error: ${firstLine(checked.error)} (available variables: ${variables})` };
  }
  if (checked.type !== 'bool' && checked.type !== 'dyn') {
    return { ok: false, message: `Condition must be boolean, but its type is ${checked.type ?? 'unknown'}.` };
  }
  let historyQueries: HistoryQuery[] = [];
  if (phase === 'policy') {
    const asked = historyQueriesOf(parsed.ast);
    if (!asked.ok) return { ok: false, message: asked.message };
    historyQueries = asked.queries;
  }
  let probe: CostProbe;
  try {
    probe = instrumentConditionCost(parsed.ast);
  } catch (error) {
    // Only a library upgrade that changed the AST's shape gets here: refuse rather than run unbounded.
    return { ok: false, message: `CEL expression cannot be given a cost budget: ${firstLine(error)}` };
  }
  const evaluate = (activation: Record<string, unknown>, given?: CostMeter): ConditionOutcome => {
    const meter = given ?? createCostMeter(CONDITION_COST_LIMIT);
    try {
      const context: Record<string, unknown> = {};
      // `history` is a typed object (HistoryCel), passed as it is.
      for (const key of Object.keys(activation)) context[key] = key === 'history' ? activation[key] : toCelValue(activation[key]);
      const value: unknown = probe.run(meter, () => parsed(context));
      // Past the budget, whatever value CEL's error absorption (`error || true`) still reached
      // was not fully computed: the evaluation fails.
      if (meter.exceeded) return { ok: false, error: costExceededMessage(meter) };
      if (typeof value !== 'boolean') {
        return { ok: false, error: `condition evaluated to ${typeof value}, not a boolean` };
      }
      return { ok: true, holds: value };
    } catch (error) {
      return { ok: false, error: meter.exceeded ? costExceededMessage(meter) : firstLine(error) };
    }
  };
  return { ok: true, condition: { ...condition, evaluate, historyQueries } };
}
