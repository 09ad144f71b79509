import { describe, expect, it } from 'vitest';
import { compileContract, type CompiledContract } from './compile-contract';
import { createCostMeter } from './condition-cost';

const base = {
  id: 'probe.tool',
  version: '1.0.0',
  description: 'A tool.',
  owner: 'team',
  annotations: { kind: 'query', side_effect_level: 'read_only', idempotent: true },
};

function compile(input: object, extra: object = {}): CompiledContract {
  const result = compileContract({ ...base, input, ...extra });
  if (!result.ok) throw new Error(JSON.stringify(result.problems));
  return result.contract;
}

/** `$defs` d1 … d(n-1), each anyOf two references to the one before: 2^n evaluations of d0. */
function doublingChain(n: number): object {
  const defs: Record<string, unknown> = { d0: { type: 'string' } };
  for (let i = 1; i < n; i++) defs[`d${i}`] = { anyOf: [{ $ref: `#/$defs/d${i - 1}` }, { $ref: `#/$defs/d${i - 1}` }] };
  return { type: 'object', $defs: defs, properties: { a: { $ref: `#/$defs/d${n - 1}` } } };
}

const outOfSteps = (subject: string, limit: number) =>
  `The ${subject} could not be checked: the contract's schema exceeded its evaluation budget of ${limit} steps.`;

describe('schema checks have a step budget', () => {
  it('refuses a value whose check would re-enter references exponentially often', () => {
    const issues = compile(doublingChain(21)).checkInput({ a: 1 });
    expect(issues).toHaveLength(1);
    expect(issues[0]).toMatchObject({ code: 'AXAG_CONSTRAINT_VIOLATION', path: '$', message: outOfSteps('arguments', 1_000_000) });
    // A value the schema accepts is settled by each anyOf's first branch. Under
    // unevaluatedProperties Ajv tries every branch (to know which properties each evaluated), so
    // the accepted value costs as much as the refused one; a shorter chain is within the budget.
    expect(compile(doublingChain(21)).checkInput({ a: 'x' })).toEqual([]);
    expect(compile({ ...doublingChain(21), unevaluatedProperties: false }).checkInput({ a: 'x' })).toMatchObject([
      { code: 'AXAG_CONSTRAINT_VIOLATION', message: outOfSteps('arguments', 1_000_000) },
    ]);
    expect(compile(doublingChain(8)).checkInput({ a: 'x' })).toEqual([]);
    expect(compile(doublingChain(8)).checkInput({ a: 1 })[0]?.message).not.toBe(outOfSteps('arguments', 1_000_000));
  });

  it('charges the meter it is given, shared with the rest of a call or a test run', () => {
    const contract = compile({
      type: 'object',
      properties: { list: { type: 'array', items: { anyOf: [{ type: 'string' }, { type: 'integer' }] } } },
    });
    const args = { list: Array.from({ length: 200 }, (_, i) => i) };
    expect(contract.checkInput(args)).toEqual([]);
    const meter = createCostMeter(1000);
    expect(contract.checkInput(args, meter)).toMatchObject([{ code: 'AXAG_CONSTRAINT_VIOLATION', message: outOfSteps('arguments', 1000) }]);
    expect(meter.exceeded).toBe(true);
    // Spent is spent: the next check on that meter is refused at its first costly keyword.
    expect(contract.checkInput({ list: [1] }, meter)).toHaveLength(1);
    expect(contract.checkInput({ list: [1] }, createCostMeter(1000))).toEqual([]);
  });

  it('counts every key against every pattern of patternProperties', () => {
    const patterns = Object.fromEntries(Array.from({ length: 100 }, (_, i) => [`^k${i}_`, { type: 'string' }]));
    const contract = compile({ type: 'object', patternProperties: patterns });
    const keys = (n: number) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`z${i}`, 1]));
    expect(contract.checkInput(keys(100))).toEqual([]);
    expect(contract.checkInput(keys(20_000))).toMatchObject([{ code: 'AXAG_CONSTRAINT_VIOLATION', path: '$' }]);
  });

  it('counts the names of required on every object, not once', () => {
    const names = Array.from({ length: 5000 }, (_, i) => `p${i}`);
    const contract = compile({ type: 'object', properties: { rows: { type: 'array', items: { type: 'object', required: names } } } });
    expect(contract.checkInput({ rows: [{}] })[0]?.code).toBe('AXAG_MISSING_PARAM');
    expect(contract.checkInput({ rows: Array.from({ length: 300 }, () => ({})) })).toMatchObject([
      { code: 'AXAG_CONSTRAINT_VIOLATION', message: outOfSteps('arguments', 1_000_000) },
    ]);
  });

  it('answers for results and error payloads with their own codes', () => {
    const contract = compile({ type: 'object' }, { output: doublingChain(21), errors: doublingChain(21) });
    expect(contract.checkOutput({ a: 1 })).toMatchObject([{ code: 'AXAG_OUTPUT_MISMATCH', message: outOfSteps('result', 1_000_000) }]);
    expect(contract.checkErrorPayload({ a: 1 })).toMatchObject([
      { code: 'AXAG_ERROR_SCHEMA_MISMATCH', message: outOfSteps('error', 1_000_000) },
    ]);
  });
});
