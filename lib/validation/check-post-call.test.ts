import { describe, expect, it } from 'vitest';
import { checkPostCall } from './check-post-call';
import { callerContext, compileOrThrow, kitchenSinkContract, validArgs } from './test-contracts';

const contract = compileOrThrow(kitchenSinkContract);
const base = { contract, arguments: validArgs, context: callerContext };
const reported = [{ id: 'stock_reserved' }];

describe('checkPostCall', () => {
  it('accepts a matching result with its required side effects', () => {
    expect(checkPostCall({ ...base, result: { order_id: 'o1', total: 5 }, side_effects: reported })).toEqual({ errors: [], warnings: [] });
  });

  it('AXAG_OUTPUT_MISMATCH for every output schema issue, keeping the keyword', () => {
    const { errors } = checkPostCall({ ...base, result: { total: -1 }, side_effects: reported });
    expect(errors).toMatchObject([
      {
        code: 'AXAG_OUTPUT_MISMATCH',
        type: 'output_error',
        path: '$.order_id',
        details: { constraint: { keyword: 'required', mapped_code: 'AXAG_MISSING_PARAM' } },
      },
      { code: 'AXAG_OUTPUT_MISMATCH', type: 'output_error', path: '$.total', details: { constraint: { keyword: 'minimum', limit: 0 } } },
    ]);
    expect(checkPostCall({ ...base, result: { order_id: 'o1', total: 0 }, side_effects: reported }).errors.map((e) => e.code)).toEqual([
      'AXAG_POSTCONDITION_FAILED',
    ]);
  });

  it('AXAG_POSTCONDITION_FAILED when a postcondition does not hold, with result in scope', () => {
    const { errors } = checkPostCall({ ...base, result: { order_id: 'o1', total: 0 }, side_effects: reported });
    expect(errors).toMatchObject([
      {
        code: 'AXAG_POSTCONDITION_FAILED',
        type: 'postcondition_error',
        message: 'Postcondition not met: total must be positive',
        details: { condition_id: 'total_positive', failed_postcondition: 'total must be positive' },
      },
    ]);
    expect(checkPostCall({ ...base, result: { order_id: 'o1', total: 1 }, side_effects: reported }).errors).toEqual([]);
  });

  it('fails closed when a postcondition cannot be evaluated', () => {
    const { errors } = checkPostCall({ ...base, result: { order_id: 'o1' }, side_effects: reported });
    expect(errors).toMatchObject([{ code: 'AXAG_POSTCONDITION_FAILED', details: { evaluation_error: expect.any(String) } }]);
  });

  it('AXAG_ERROR_SCHEMA_MISMATCH for malformed error payloads; postconditions and required effects skipped', () => {
    const bad = checkPostCall({ ...base, error: { message: 'boom' } });
    expect(bad.errors).toMatchObject([{ code: 'AXAG_ERROR_SCHEMA_MISMATCH', type: 'error_semantics_error', path: '$.code' }]);
    expect(checkPostCall({ ...base, error: { code: 'OUT_OF_STOCK' } })).toEqual({ errors: [], warnings: [] });
  });

  it('AXAG_SIDE_EFFECT_MISSING when a required declared effect is not reported', () => {
    const { errors } = checkPostCall({ ...base, result: { order_id: 'o1', total: 5 }, side_effects: [{ id: 'email_sent' }] });
    expect(errors).toMatchObject([
      { code: 'AXAG_SIDE_EFFECT_MISSING', type: 'side_effect_error', details: { side_effect: 'stock_reserved' } },
    ]);
    expect(
      checkPostCall({ ...base, result: { order_id: 'o1', total: 5 }, side_effects: [{ id: 'stock_reserved' }, { id: 'email_sent' }] })
        .errors,
    ).toEqual([]);
  });

  it('AXAG_SIDE_EFFECT_UNDECLARED is a warning for reported effects the contract does not declare', () => {
    const result = checkPostCall({ ...base, result: { order_id: 'o1', total: 5 }, side_effects: [...reported, { id: 'sms_sent' }] });
    expect(result.errors).toEqual([]);
    expect(result.warnings).toMatchObject([
      { code: 'AXAG_SIDE_EFFECT_UNDECLARED', type: 'side_effect_error', details: { side_effect: 'sms_sent' } },
    ]);
    expect(checkPostCall({ ...base, result: { order_id: 'o1', total: 5 }, side_effects: reported }).warnings).toEqual([]);
  });

  it('contracts without output/errors schemas accept anything', () => {
    const loose = compileOrThrow({
      ...kitchenSinkContract,
      output: undefined,
      errors: undefined,
      postconditions: undefined,
      side_effects: undefined,
    });
    expect(checkPostCall({ ...base, contract: loose, result: 42 })).toEqual({ errors: [], warnings: [] });
    expect(checkPostCall({ ...base, contract: loose, error: 'x' })).toEqual({ errors: [], warnings: [] });
  });
});
