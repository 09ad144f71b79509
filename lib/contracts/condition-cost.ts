import type { ASTNode } from '@marcbachmann/cel-js';

/**
 * A cost budget for one evaluation of a CEL condition. CEL has no loops, but its comprehension
 * macros (`all`, `exists`, `exists_one`, `map`, `filter`) nest: four `exists` over a 100-element
 * literal are 10^8 steps, and `args.items.all(a, a in args.items)` is quadratic in the request.
 * The server is single-threaded, so an unbounded condition stalls every other request.
 *
 * `@marcbachmann/cel-js` has no step or cost limit (its `limits` bound only the parse: AST nodes,
 * depth, literal sizes), so the compiled AST is instrumented instead: every node's `evaluate` is
 * wrapped to count one step each time it runs, and every value handed to an operation or
 * function that may walk it (`==`, `in`, `+`, `contains`, …) is charged its size first, before
 * the operation runs. Past the budget every node throws, so nothing more is computed, and the
 * evaluation is reported as failed whatever value it might still reach: callers treat a
 * failed evaluation as a condition that does not hold (fail closed).
 *
 * The instrumentation reads the library's AST internals (`meta.alternate`, `meta.macro`,
 * `meta.evaluate`, a comprehension's `args`); `instrumentConditionCost` refuses a tree it does
 * not recognise, so an upgrade that changes them fails compilation loudly instead of leaving
 * conditions unbounded (condition-cost.test.ts pins the step counts).
 */

/**
 * Steps one decision's conditions may take together (a call's preconditions, or every rule of
 * every policy deciding it): about 0.05 to 0.2 s of interpretation on one core.
 */
export const CONDITION_COST_LIMIT = 1_000_000;
/** Steps a document's own test cases may take together (lint runs them as an author types). */
export const TEST_RUN_COST_LIMIT = 4 * CONDITION_COST_LIMIT;
/**
 * Steps the test cases of every document in one `POST /api/v1/lint` may take together: up to 50
 * documents, and viewers may lint, so a budget per document let one request take 200,000,000.
 */
export const LINT_REQUEST_COST_LIMIT = 10 * CONDITION_COST_LIMIT;
/** Steps one side of an impact preview may take over all the calls it replays. */
export const REPLAY_COST_LIMIT = 10 * CONDITION_COST_LIMIT;

/**
 * The meter one replayed call is evaluated on: the gate's own budget for a call, or what is left
 * of the replay's shared budget when that is less (it starts partly spent, so what it reports is
 * the per-call limit, as the gate would). A call the gate would refuse for its cost is refused in
 * the replay too, and no single call holds the thread for the whole replay's budget (10,000,000
 * steps, about half a second). `settle` charges what the call spent to the shared meter.
 */
export function replayCallMeter(shared: CostMeter): { meter: CostMeter; settle(): void } {
  const left = shared.exceeded ? 0 : Math.max(0, shared.limit - shared.spent);
  const meter = createCostMeter(CONDITION_COST_LIMIT);
  const head = Math.max(0, CONDITION_COST_LIMIT - left);
  meter.spent = head;
  // Run out with less than a call's budget left, it is the replay's budget that ran out: said so,
  // not "1000000 steps", which the call did not spend.
  if (head > 0) meter.sharedLimit = shared.limit;
  return { meter, settle: () => void spendSteps(shared, meter.spent - head) };
}

/** Characters (or bytes) of a string counted as one step when an operation consumes it. */
export const CHARACTERS_PER_STEP = 10;

export class ConditionCostExceededError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ConditionCostExceededError';
  }
}

export interface CostMeter {
  readonly limit: number;
  spent: number;
  exceeded: boolean;
  /** Sizes already computed in this evaluation, by value identity (CEL values are immutable). */
  readonly sizes: Map<object, number>;
  /**
   * Thrown by every step once the budget is spent (made then: an Error costs its stack trace).
   * One instance: quantifiers (`all`, `exists`) catch a step's error and go on to the next
   * element, so throwing must stay cheap.
   */
  error: ConditionCostExceededError | null;
  /** Set on a replayed call's meter that has less than its own budget left of `sharedLimit`. */
  sharedLimit?: number;
}

export function createCostMeter(limit: number = CONDITION_COST_LIMIT): CostMeter {
  return { limit, spent: 0, exceeded: false, sizes: new Map(), error: null };
}

/**
 * Steps charged for counting one declared past call into one history series (a policy test
 * case's or the playground's simulated history): about 2 µs of work, what 60 or so steps of a
 * condition take. Without a charge, 200 test cases of 1,000 past calls each (YAML aliases make
 * that a 45 KB text) against a policy of 100 limits held the server 12 s per document linted.
 */
export const HISTORY_COUNT_STEPS = 64;

/** Charges `steps` of work done beside the conditions to the same budget: false (and spent) when they do not fit. */
export function spendSteps(meter: CostMeter, steps: number): boolean {
  if (meter.exceeded) return false;
  meter.spent += steps;
  if (meter.spent <= meter.limit) return true;
  exceeded(meter);
  return false;
}

/** Why an evaluation on `meter` failed, once it has exceeded its budget. */
export function costExceededMessage(meter: CostMeter): string {
  return `condition exceeded ${budgetText(meter)}`;
}

/** The budget a meter ran out of, as the end of "… exceeded": its own, or the replay's it shares. */
export function budgetText(meter: CostMeter): string {
  return meter.sharedLimit === undefined
    ? `its evaluation budget of ${meter.limit} steps`
    : `the evaluation budget of ${meter.sharedLimit} steps the replayed calls share`;
}

function exceeded(meter: CostMeter): ConditionCostExceededError {
  meter.exceeded = true;
  return (meter.error ??= new ConditionCostExceededError(costExceededMessage(meter)));
}

function charge(meter: CostMeter, steps: number): void {
  if (meter.exceeded) throw exceeded(meter);
  meter.spent += steps;
  if (meter.spent > meter.limit) throw exceeded(meter);
}

/**
 * What an operation may cost to walk a value: one per list element or map entry, all the way
 * down, and one per CHARACTERS_PER_STEP characters of a string. Shared sub-values are sized
 * once but counted at each place they occur, so a list built as `[a, a]` from `[b, b]` … costs
 * what comparing it would cost, not what storing it does.
 */
export function valueCost(value: unknown, sizes: Map<object, number> = new Map()): number {
  if (typeof value === 'string') return Math.ceil(value.length / CHARACTERS_PER_STEP);
  if (typeof value !== 'object' || value === null) return 0;
  const known = sizes.get(value);
  if (known !== undefined) return known;
  let size = 0;
  try {
    if (value instanceof Uint8Array) size = Math.ceil(value.length / CHARACTERS_PER_STEP);
    else if (Array.isArray(value) || value instanceof Set) for (const item of value) size += 1 + valueCost(item, sizes);
    else if (value instanceof Map)
      for (const [key, item] of value as Map<unknown, unknown>) size += 1 + valueCost(key, sizes) + valueCost(item, sizes);
    else if (Object.getPrototypeOf(value) === Object.prototype)
      // Map literals evaluate to plain objects.
      for (const key of Object.keys(value)) size += 1 + valueCost(key, sizes) + valueCost((value as Record<string, unknown>)[key], sizes);
  } catch {
    // Nested past the stack: far beyond any budget.
    size = Number.POSITIVE_INFINITY;
  }
  sizes.set(value, size);
  return size;
}

/** How a node's value is charged by the node that uses it. */
type Use = 'free' | 'walked' | 'iterated';

interface NodeMeta {
  alternate?: RuntimeNode;
  macro?: { evaluate: (ev: unknown, macro: unknown, ctx: unknown) => unknown; [key: string]: unknown };
  evaluate?: (this: RuntimeNode, ev: unknown, ast: RuntimeNode, ctx: unknown) => unknown;
}

type Evaluate = (ev: unknown, ast: RuntimeNode, ctx: unknown) => unknown;

/** A node as the interpreter sees it, past the typed surface `ASTNode` shows. */
interface RuntimeNode {
  readonly op: string;
  readonly args: unknown;
  readonly meta: unknown;
  evaluate: Evaluate;
}

/** The meter of the evaluation in progress (evaluation is synchronous: one at a time). */
export interface CostProbe {
  run<T>(meter: CostMeter, evaluate: () => T): T;
}

function isNode(value: unknown): value is RuntimeNode {
  return typeof value === 'object' && value !== null && typeof (value as { op?: unknown }).op === 'string' && 'meta' in value;
}

function metaOf(node: RuntimeNode): NodeMeta {
  const meta = node.meta as NodeMeta | undefined;
  if (typeof meta !== 'object' || meta === null) throw new Error(`cannot meter CEL node "${node.op}"`);
  return meta;
}

/** Children of a node, with how each child's value is used by it. */
function childrenOf(node: RuntimeNode, meta: NodeMeta): [unknown, Use][] {
  const args = node.args;
  if (meta.macro) {
    // has(a.b) and cel.bind(x, value, expression) only pass their operands along.
    const out: [unknown, Use][] = [];
    const stack: unknown[] = [args];
    while (stack.length > 0) {
      const current = stack.pop();
      if (Array.isArray(current)) stack.push(...(current as unknown[]));
      else if (isNode(current)) out.push([current, 'free']);
    }
    return out;
  }
  switch (node.op) {
    case 'value':
    case 'id':
    case 'accuValue':
    case 'accuInc':
      return [];
    case 'comprehension': {
      const { iterable, init, step } = args as { iterable: unknown; init: unknown; step: unknown };
      return [
        [iterable, 'iterated'],
        [init, 'free'],
        [step, 'free'],
      ];
    }
    // Access, branching and building a list or map look at their operands' references only.
    case '.':
    case '.?':
      return [[(args as unknown[])[0], 'free']];
    case '[]':
    case '[?]':
    case '?:':
    case '||':
    case '&&':
    case 'list':
      return (args as unknown[]).map((child): [unknown, Use] => [child, 'free']);
    case 'map':
      return (args as [unknown, unknown][]).flatMap(([key, value]): [unknown, Use][] => [
        [key, 'free'],
        [value, 'free'],
      ]);
    case '!_':
    case '-_':
    case 'accuPush':
      return [[args, 'free']];
    case 'call': {
      const [name, callArgs] = args as [string, unknown[]];
      return callArgs.map((child): [unknown, Use] => [child, name === 'size' ? 'free' : 'walked']);
    }
    case 'rcall': {
      const [name, receiver, callArgs] = args as [string, unknown, unknown[]];
      const use: Use = name === 'size' ? 'free' : 'walked';
      return [receiver, ...callArgs].map((child): [unknown, Use] => [child, use]);
    }
    default:
      // Operators (`==`, `in`, `+`, `<`, …) may walk both operands.
      if (!Array.isArray(args)) throw new Error(`cannot meter CEL node "${node.op}"`);
      return (args as unknown[]).map((child): [unknown, Use] => [child, 'walked']);
  }
}

/**
 * Wraps every node of a parsed and type-checked condition so that evaluating it inside
 * `probe.run(meter, …)` charges `meter`. Throws on a tree it does not recognise.
 */
export function instrumentConditionCost(root: ASTNode): CostProbe {
  const state: { meter: CostMeter | null } = { meter: null };
  const currentMeter = (): CostMeter => {
    // Reaching a node outside `run` would be a bug; refuse rather than run unmetered.
    if (!state.meter) throw new Error('condition evaluated without a cost meter');
    return state.meter;
  };
  const seen = new Set<RuntimeNode>();
  const pending: [unknown, Use][] = [[root, 'free']];
  while (pending.length > 0) {
    const [node, use] = pending.pop()!;
    if (!isNode(node)) throw new Error('cannot meter a CEL node of unknown shape');
    const meta = metaOf(node);
    // A macro expanded by the parser (all, exists, map, …) runs its expansion instead.
    if (meta.alternate) {
      pending.push([meta.alternate, use]);
      continue;
    }
    if (seen.has(node)) continue;
    seen.add(node);
    if (!meta.macro && typeof meta.evaluate !== 'function') throw new Error(`cannot meter CEL node "${node.op}"`);
    pending.push(...childrenOf(node, meta));
    if (node.op === 'comprehension') stopQuantifierOnBudget(node, currentMeter);

    const inner: Evaluate = meta.macro
      ? (ev, _ast, ctx) => meta.macro!.evaluate(ev, meta.macro, ctx)
      : (ev, ast, ctx) => meta.evaluate!.call(ast, ev, ast, ctx);
    const wrapped: Evaluate =
      use === 'free'
        ? (ev, ast, ctx) => {
            charge(currentMeter(), 1);
            return inner(ev, ast, ctx);
          }
        : (ev, ast, ctx) => {
            const meter = currentMeter();
            charge(meter, 1);
            const value = inner(ev, ast, ctx);
            charge(meter, use === 'walked' ? valueCost(value, meter.sizes) : shallowLength(value));
            return value;
          };
    node.evaluate = wrapped;
  }
  return {
    run<T>(meter: CostMeter, evaluate: () => T): T {
      const previous = state.meter;
      state.meter = meter;
      try {
        return evaluate();
      } finally {
        state.meter = previous;
      }
    },
  };
}

function shallowLength(value: unknown): number {
  if (Array.isArray(value)) return value.length;
  if (value instanceof Map || value instanceof Set) return value.size;
  if (typeof value === 'object' && value !== null) return Object.keys(value).length;
  return 0;
}

/**
 * `all` and `exists` catch an element's error and go on to the next element (CEL's error
 * absorption), so once the budget is spent they would still visit every remaining element.
 * Their loop condition runs outside that catch: checking the budget there ends the loop.
 */
function stopQuantifierOnBudget(node: RuntimeNode, currentMeter: () => CostMeter): void {
  const args = node.args as { condition?: (accu: unknown) => boolean };
  const condition = args.condition;
  if (typeof condition !== 'function') return;
  args.condition = (accu: unknown) => {
    const meter = currentMeter();
    if (meter.exceeded) throw exceeded(meter);
    return condition(accu);
  };
}
