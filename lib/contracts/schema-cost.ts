import type Ajv2020 from 'ajv/dist/2020.js';
import { _, type Code, type KeywordCxt } from 'ajv/dist/2020.js';
import type { CodeKeywordDefinition } from 'ajv/dist/types';
import { CHARACTERS_PER_STEP, ConditionCostExceededError, costExceededMessage, spendSteps, type CostMeter } from './condition-cost';

/**
 * A step budget for checking one value against a contract schema, charged to the same meter
 * as the call's conditions. A schema check costs about the schema's size times the value's,
 * and both are large enough to hold the server's one thread:
 *
 * - `$ref` re-enters a schema, so a chain of `$defs` each `anyOf: [{$ref: prev}, {$ref: prev}]`
 *   evaluates its last member 2^n times on one value: 22 such definitions (a 1 KB contract)
 *   took 4.5 s on `{"a": 1}`, in a test case of a contract sent to `POST /api/v1/lint`, which
 *   viewers may call. A recursive schema can equally double per level of the data.
 * - `items: {required: [5,000 names]}` against 300,000 empty objects (a 900 KB argument) ran
 *   out of memory collecting 1.5 billion errors; `properties` of 5,000 names took 24 s.
 * - `patternProperties` tests every key against every pattern: 100 patterns against the
 *   70,000 keys of a 1 MB argument took 2.4 s.
 * - A keyword that reads a whole string (`pattern`, `format`, lengths) or value (`enum`,
 *   `uniqueItems`) is repeated by each branch and reference that reaches it.
 *
 * Ajv has no budget, so these keywords' generated code starts with a charge (KEYWORD_STEPS).
 * A check that runs out throws, and the contract's checker answers that the value could not
 * be checked (fail closed), as a condition that runs out does not hold.
 */

/** Entries of a keyword (property names, branches' siblings) counted as one step. */
const ENTRIES_PER_STEP = 10;

/**
 * The steps the check in progress has left, decremented inline by the generated code: a call
 * per keyword (to a function reading the meter) cost a quarter of the validations per second.
 * Infinite outside enterSchemaMeter/leaveSchemaMeter; negative once spent, so every later charge throws too.
 */
const budget = { left: Number.POSITIVE_INFINITY, out: outOfSteps };

/** The meter of the check in progress (validation is synchronous: one at a time). */
let active: CostMeter | null = null;

/** Writes what the check in progress has spent back to its meter. */
function settle(meter: CostMeter): void {
  if (meter.exceeded) return;
  meter.spent = meter.limit - budget.left;
  if (meter.spent > meter.limit) spendSteps(meter, 0);
}

/** Makes `meter` (none: nothing) the one the generated code charges, with what it has left. */
function charge(meter: CostMeter | null): void {
  active = meter;
  budget.left = meter === null ? Number.POSITIVE_INFINITY : meter.exceeded ? -1 : meter.limit - meter.spent;
}

function outOfSteps(): never {
  const meter = active;
  if (meter === null) throw new ConditionCostExceededError('schema check out of steps');
  settle(meter);
  throw meter.error ?? new ConditionCostExceededError(costExceededMessage(meter));
}

/** Charges the check in progress; throws once its budget is spent. Unmetered outside enterSchemaMeter/leaveSchemaMeter. */
export function chargeSchemaSteps(steps: number): void {
  if ((budget.left -= steps) < 0) outOfSteps();
}

/**
 * Starts charging `meter` for the schema checks that run until leaveSchemaMeter; returns what
 * leaveSchemaMeter restores. A pair of calls, not a wrapper taking the check: the checkers call
 * it on every validation, and a wrapper cost a tenth of their speed.
 */
export function enterSchemaMeter(meter: CostMeter): CostMeter | null {
  const previous = active;
  if (previous !== null) settle(previous);
  charge(meter);
  return previous;
}

export function leaveSchemaMeter(meter: CostMeter, previous: CostMeter | null): void {
  settle(meter);
  charge(previous);
}

const entries = (cxt: KeywordCxt): number => {
  const schema = cxt.schema as unknown;
  const n = Array.isArray(schema) ? schema.length : typeof schema === 'object' && schema !== null ? Object.keys(schema).length : 1;
  return Math.ceil(n / ENTRIES_PER_STEP);
};
/**
 * Steps per member of a list keyword: a branch of allOf/anyOf/oneOf, a name in required. A
 * failed branch or a missing name leaves an error object (Ajv collects all): about 0.5 µs, where
 * a condition's step is 0.05 to 0.2 µs.
 */
const STEPS_PER_MEMBER = 4;
const members = (cxt: KeywordCxt): number => STEPS_PER_MEMBER * (Array.isArray(cxt.schema) ? cxt.schema.length : 1);
const patternCount = (schema: unknown): number => (typeof schema === 'object' && schema !== null ? Object.keys(schema).length : 0);
const stringSteps = (cxt: KeywordCxt): Code =>
  _`(typeof ${cxt.data} == "string" ? Math.ceil(${cxt.data}.length / ${CHARACTERS_PER_STEP}) : 0)`;

/** The steps one evaluation of a keyword costs: a number, or code computing it from the value. */
const KEYWORD_STEPS: Record<string, (cxt: KeywordCxt) => Code | number> = {
  // A call of the referenced schema's function.
  $ref: () => 2,
  $dynamicRef: () => 2,
  allOf: members,
  anyOf: members,
  oneOf: members,
  properties: entries,
  required: members,
  dependentRequired: entries,
  dependentSchemas: entries,
  prefixItems: entries,
  // Every key against every pattern (additionalProperties tests them again to find the rest).
  patternProperties: (cxt) => _`${patternCount(cxt.schema)} * Object.keys(${cxt.data}).length`,
  additionalProperties: (cxt) => {
    const patterns = patternCount((cxt.parentSchema as { patternProperties?: unknown }).patternProperties);
    return patterns === 0 ? 0 : _`${patterns} * Object.keys(${cxt.data}).length`;
  },
  pattern: stringSteps,
  format: stringSteps,
  minLength: stringSteps,
  maxLength: stringSteps,
};

export function addSchemaCost(ajv: Ajv2020): void {
  for (const [keyword, steps] of Object.entries(KEYWORD_STEPS)) {
    const definition = ajv.getKeyword(keyword);
    if (typeof definition !== 'object' || typeof (definition as CodeKeywordDefinition).code !== 'function') {
      throw new Error(`Ajv has no ${keyword} keyword to meter`);
    }
    const keywordDefinition = definition as CodeKeywordDefinition;
    const code = keywordDefinition.code;
    keywordDefinition.code = (cxt, ruleType) => {
      const cost = steps(cxt);
      if (cost !== 0) {
        const left = cxt.gen.scopeValue('obj', { ref: budget });
        cxt.gen.code(_`if ((${left}.left -= ${cost}) < 0) ${left}.out();`);
      }
      code(cxt, ruleType);
    };
  }
}
