import { describe, expect, it } from 'vitest';
import { compileCondition, type CompiledCondition, type ConditionPhase } from './compile-conditions';
import { CONDITION_COST_LIMIT, createCostMeter, replayCallMeter, valueCost } from './condition-cost';

function compiled(expression: string, phase: ConditionPhase = 'pre'): CompiledCondition {
  const result = compileCondition({ id: 'c', expression, message: 'm' }, phase);
  if (!result.ok) throw new Error(result.message);
  return result.condition;
}

const BUDGET_ERROR = `condition exceeded its evaluation budget of ${CONDITION_COST_LIMIT} steps`;
const range = (n: number) => Array.from({ length: n }, (_, i) => i);
const literal = (n: number) => `[${range(n).join(', ')}]`;
/** `depth` nested `exists` over the same `n`-element list literal; never true. */
const nestedExists = (depth: number, n: number) => {
  const vars = range(depth).map((i) => `v${i}`);
  let body = `${vars.join(' + ')} < 0`;
  for (const v of [...vars].reverse()) body = `${literal(n)}.exists(${v}, ${body})`;
  return body;
};

describe('condition cost budget', () => {
  it('counts one step per node evaluated (pinned, so a library upgrade that skips nodes shows here)', () => {
    const meter = createCostMeter();
    // `<` (1), `args.amount` (2: `.` and `args`), `100` (1)
    expect(compiled('args.amount < 100').evaluate({ args: { amount: 5 }, context: {} }, meter)).toEqual({ ok: true, holds: true });
    expect(meter.spent).toBe(4);
  });

  it('counts every iteration of a comprehension, and the list it walks', () => {
    const meter = createCostMeter();
    const outcome = compiled('args.items.all(a, a >= 0)').evaluate({ args: { items: range(10) }, context: {} }, meter);
    expect(outcome).toEqual({ ok: true, holds: true });
    // 2 (`args.items`) + 10 (its length) + 1 (the comprehension, its init) + 10 × 5 (the step:
    // ternary, `>=`, `a`, `0`, `true`)
    expect(meter.spent).toBe(2 + 10 + 2 + 10 * 5);
  });

  it('fails four nested `exists` over a 100-element list (10^8 steps) at the budget', () => {
    const meter = createCostMeter();
    const outcome = compiled(nestedExists(4, 100), 'policy').evaluate({ args: {}, context: {}, history: null }, meter);
    expect(outcome).toEqual({ ok: false, error: BUDGET_ERROR });
    // Stops at the first step past the budget; the remaining elements are not visited.
    expect(meter.spent).toBe(CONDITION_COST_LIMIT + 1);
  });

  it('evaluates the same nesting over a small list', () => {
    const meter = createCostMeter();
    expect(compiled(nestedExists(4, 3)).evaluate({ args: {}, context: {} }, meter)).toEqual({ ok: true, holds: false });
    expect(meter.spent).toBeLessThan(5_000);
  });

  it('fails a quadratic uniqueness check over 100,000 arguments, and passes it over 100', () => {
    const unique = compiled('args.items.all(a, args.items.exists_one(b, b == a))');
    const big = createCostMeter();
    expect(unique.evaluate({ args: { items: range(100_000) }, context: {} }, big)).toEqual({ ok: false, error: BUDGET_ERROR });
    expect(big.spent).toBe(CONDITION_COST_LIMIT + 1);
    expect(unique.evaluate({ args: { items: range(100) }, context: {} })).toEqual({ ok: true, holds: true });
  });

  it('charges a value by its size when an operation walks it (`in` over an argument list)', () => {
    const member = compiled('args.items.all(a, a in args.items)');
    const meter = createCostMeter();
    expect(member.evaluate({ args: { items: range(100_000) }, context: {} }, meter)).toEqual({ ok: false, error: BUDGET_ERROR });
    // Each `in` is charged 100,000 before it runs: the budget goes after about ten elements.
    expect(meter.spent).toBeLessThan(CONDITION_COST_LIMIT + 100_001);
    expect(member.evaluate({ args: { items: range(300) }, context: {} })).toEqual({ ok: true, holds: true });
  });

  it('does not charge `size` or field access by the size of what they look at', () => {
    const meter = createCostMeter();
    const outcome = compiled('args.items.all(a, size(args.items) > 0 && args.items[0] == 0)').evaluate(
      { args: { items: range(50_000) }, context: {} },
      meter,
    );
    expect(outcome).toEqual({ ok: true, holds: true });
    expect(meter.spent).toBeLessThan(CONDITION_COST_LIMIT);
  });

  it('charges strings by length when an operation reads them', () => {
    const contains = compiled('args.items.all(a, !args.text.contains("y"))');
    const text = 'x'.repeat(1_000_000);
    expect(contains.evaluate({ args: { items: range(200), text }, context: {} })).toEqual({ ok: false, error: BUDGET_ERROR });
    expect(contains.evaluate({ args: { items: range(5), text }, context: {} })).toEqual({ ok: true, holds: true });
  });

  it('charges a shared structure at every place it occurs (exponential lists built with cel.bind)', () => {
    // Each level doubles the list without copying; comparing the last one walks 2^20 elements.
    let expression = 'x20 == x20';
    for (let i = 20; i >= 1; i--) expression = `cel.bind(x${i}, [x${i - 1}, x${i - 1}], ${expression})`;
    expression = `cel.bind(x0, [1], ${expression})`;
    expect(compiled(expression).evaluate({ args: {}, context: {} })).toEqual({ ok: false, error: BUDGET_ERROR });
  });

  it('fails even where CEL would absorb the error (`error || true` is true)', () => {
    const absorbed = compiled(`${nestedExists(4, 100)} || true`);
    expect(absorbed.evaluate({ args: {}, context: {} })).toEqual({ ok: false, error: BUDGET_ERROR });
    const allOf = compiled(`${literal(100)}.all(a, ${nestedExists(3, 100)} || a >= 0)`);
    expect(allOf.evaluate({ args: {}, context: {} })).toEqual({ ok: false, error: BUDGET_ERROR });
  });

  it('gives every evaluation its own budget unless a meter is shared', () => {
    const condition = compiled('args.items.all(a, a >= 0)');
    const activation = { args: { items: range(100_000) }, context: {} };
    // 600,004 steps each: twice within their own budgets, but not within one shared.
    expect(condition.evaluate(activation)).toEqual({ ok: true, holds: true });
    expect(condition.evaluate(activation)).toEqual({ ok: true, holds: true });
    const shared = createCostMeter();
    expect(condition.evaluate(activation, shared)).toEqual({ ok: true, holds: true });
    expect(condition.evaluate(activation, shared)).toEqual({ ok: false, error: BUDGET_ERROR });
    // Once spent, a meter fails whatever is evaluated on it next.
    expect(compiled('true').evaluate(activation, shared)).toEqual({ ok: false, error: BUDGET_ERROR });
  });

  it("evaluates a replayed call on the gate's budget for a call, within what is left of the replay's", () => {
    const condition = compiled('args.items.all(a, a >= 0)');
    const costly = { args: { items: range(200_000) }, context: {} }; // 1,200,004 steps: over one call's budget
    const cheap = { args: { items: range(100_000) }, context: {} }; // 600,004 steps
    const replay = createCostMeter(2 * CONDITION_COST_LIMIT);
    // Refused as the gate refuses it, though the replay's budget could pay for it.
    const first = replayCallMeter(replay);
    expect(condition.evaluate(costly, first.meter)).toEqual({ ok: false, error: BUDGET_ERROR });
    first.settle();
    expect([replay.spent, replay.exceeded]).toEqual([CONDITION_COST_LIMIT + 1, false]);
    // 999,999 left: one cheap call fits; the next finds less left than it needs.
    const second = replayCallMeter(replay);
    expect(condition.evaluate(cheap, second.meter)).toEqual({ ok: true, holds: true });
    second.settle();
    // It ran out of what the calls share, and says so, not of the 1,000,000 it did not spend.
    const SHARED_ERROR = `condition exceeded the evaluation budget of ${2 * CONDITION_COST_LIMIT} steps the replayed calls share`;
    const third = replayCallMeter(replay);
    expect(condition.evaluate(cheap, third.meter)).toEqual({ ok: false, error: SHARED_ERROR });
    third.settle();
    expect(replay.exceeded).toBe(true);
    // Once the replay's budget is spent, every call after it fails at its first step.
    const fourth = replayCallMeter(replay);
    expect(compiled('true').evaluate(cheap, fourth.meter)).toEqual({ ok: false, error: SHARED_ERROR });
  });

  it('keeps map, filter, has and cel.bind working within the budget', () => {
    const condition = compiled(
      'has(args.lines) && cel.bind(qs, args.lines.map(l, l.q), qs.filter(q, q > 1).size() == 1 && qs.exists_one(q, q == 1))',
    );
    expect(condition.evaluate({ args: { lines: [{ q: 1 }, { q: 2 }] }, context: {} })).toEqual({ ok: true, holds: true });
    expect(condition.evaluate({ args: {}, context: {} })).toEqual({ ok: true, holds: false });
  });

  it('sizes values: elements and entries all the way down, strings by ten characters', () => {
    expect(valueCost(5n)).toBe(0);
    expect(valueCost('x'.repeat(25))).toBe(3);
    expect(valueCost([1, [2, 3]])).toBe(4);
    expect(valueCost(new Map([['k', 'vvvvvvvvvvv']]))).toBe(1 + 1 + 2);
    expect(valueCost({ a: 1, b: 2 })).toBe(4);
    const leaf = [1, 2];
    expect(valueCost([leaf, leaf, leaf])).toBe(9);
  });
});
