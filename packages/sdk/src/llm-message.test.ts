import { describe, expect, it } from 'vitest';
import { checkPostCall } from '@/lib/validation/check-post-call';
import { checkPreCall } from '@/lib/validation/check-pre-call';
import { makeIssue } from './error-codes.ts';
import { llmMessage, MAX_LLM_MESSAGE_CHARS, primaryErrorEnvelope } from './llm-message.ts';
import { callerContext, compileOrThrow, kitchenSinkContract, validArgs } from '@/lib/validation/test-contracts';

const contract = compileOrThrow(kitchenSinkContract);

describe('llmMessage', () => {
  it('names the tool, each problem with field and fix, and the next step', () => {
    const { errors, warnings } = checkPreCall({
      contract,
      arguments: { ...validArgs, quantity: 12, colour: 'red' },
      context: callerContext,
    });
    const text = llmMessage({ tool: 'test.kitchen_sink', errors, warnings });
    expect(text).toContain('test.kitchen_sink was refused with 2 problems');
    expect(text).toContain('quantity must be <= 10, got 12');
    expect(text).toContain('$.colour');
    expect(text).toContain('Fix: Choose a value inside the declared bounds.');
    expect(text).toMatch(/Correct the arguments and call test\.kitchen_sink again/);
    expect(text).not.toContain('\n');
  });

  it('gives a safety-specific next step and stays bounded', () => {
    const confirm = makeIssue('AXAG_CONFIRMATION_MISSING', {
      intent: 'cart.begin_checkout',
      message: 'The user has not confirmed this call',
    });
    expect(llmMessage({ tool: 'cart.begin_checkout', errors: [confirm], warnings: [] })).toContain('Ask the user to confirm');
    const many = Array.from({ length: 40 }, (_, i) =>
      makeIssue('AXAG_INVALID_TYPE', { intent: 't.x', message: `field${i} ${'x'.repeat(300)}`, path: `$.field${i}` }),
    );
    const text = llmMessage({ tool: 't.x', errors: many, warnings: [] });
    expect(text.length).toBeLessThanOrEqual(MAX_LLM_MESSAGE_CHARS);
    expect(text.endsWith('do not repeat the same call unchanged.')).toBe(true);
  });

  it('reports a clean call with its warnings', () => {
    const warning = makeIssue('AXAG_CONTRACT_DEPRECATED', { intent: 't.x', message: 't.x is deprecated' });
    expect(llmMessage({ tool: 't.x', errors: [], warnings: [warning] })).toBe(
      'The call to t.x passed validation. Warnings: AXAG_CONTRACT_DEPRECATED: t.x is deprecated.',
    );
  });
});

describe('primaryErrorEnvelope', () => {
  it('builds the seed envelope from the first error', () => {
    const { errors } = checkPreCall({
      contract: compileOrThrow({
        ...kitchenSinkContract,
        id: 'cart.begin_checkout',
        input: { type: 'object', properties: { items: { type: 'array' } } },
        scope: undefined,
        annotations: { kind: 'mutation', side_effect_level: 'write', idempotent: false },
        preconditions: [
          {
            id: 'cart_not_empty',
            expression: 'size(args.items) > 0',
            message: 'cart must have at least one item',
            suggestion: 'Add items to cart before beginning checkout',
          },
        ],
      }),
      arguments: { items: [] },
      context: callerContext,
    });
    // The seed's example envelope, word for word, plus the code, path and the condition's id.
    expect(primaryErrorEnvelope('cart.begin_checkout', errors)).toEqual({
      error: {
        code: 'AXAG_VALIDATION_ERROR',
        type: 'precondition_failed',
        message: 'Precondition not met: cart must have at least one item',
        details: {
          intent: 'cart.begin_checkout',
          code: 'AXAG_PRECONDITION_FAILED',
          failed_precondition: 'cart must have at least one item',
          condition_id: 'cart_not_empty',
          suggestion: 'Add items to cart before beginning checkout',
          path: '$',
        },
      },
    });
    // The seed's table types stay on the errors themselves.
    expect(errors[0]?.type).toBe('precondition_error');
    expect(primaryErrorEnvelope('cart.begin_checkout', [])).toBeNull();
  });

  it('names a failed postcondition the same way, and every other failure by its envelope type', () => {
    const contract = compileOrThrow({
      ...kitchenSinkContract,
      id: 'refunds.issue',
      scope: undefined,
      annotations: { kind: 'mutation', side_effect_level: 'write', idempotent: false },
      output: { type: 'object' },
      postconditions: [{ id: 'not_more', expression: 'result.amount <= 10', message: 'refund exceeds the request' }],
    });
    const errors = checkPostCall({ contract, arguments: {}, context: {}, result: { amount: 11 } }).errors.filter(
      (e) => e.code === 'AXAG_POSTCONDITION_FAILED',
    );
    expect(errors.map((e) => e.type)).toEqual(['postcondition_error']);
    expect(primaryErrorEnvelope('refunds.issue', errors)?.error).toMatchObject({
      type: 'postcondition_failed',
      details: { code: 'AXAG_POSTCONDITION_FAILED', failed_postcondition: 'refund exceeds the request', condition_id: 'not_more' },
    });
    expect(primaryErrorEnvelope('refunds.issue', errors)?.error.details.failed_precondition).toBeUndefined();
    const range = makeIssue('AXAG_OUT_OF_RANGE', { intent: 't.x', message: 'quantity must be <= 10', path: '$.quantity' });
    expect(primaryErrorEnvelope('t.x', [range])?.error).toMatchObject({ type: 'out_of_range', details: { path: '$.quantity' } });
    expect(range.type).toBe('constraint_error');
  });
});

describe('llmMessage after validate/post', () => {
  const outputIssue = makeIssue('AXAG_OUTPUT_MISMATCH', { intent: 't.x', message: 'result.total must be integer', path: '$.total' });

  it('says the result was refused and not to correct the arguments or run the tool again', () => {
    const text = llmMessage({ tool: 't.x', errors: [outputIssue], warnings: [], phase: 'post' });
    expect(text).toMatch(/^The result of t\.x was refused with 1 problem\./);
    expect(text).toContain('do not call t.x again just to get another one: it already ran');
    expect(text).not.toMatch(/correct the arguments/i);
    // Its near twin, the same issue before the call: correct the arguments.
    expect(llmMessage({ tool: 't.x', errors: [outputIssue], warnings: [] })).toContain('Correct the arguments and call t.x again');
  });

  it('speaks of a missing effect or an unknown contract in their own terms', () => {
    const missing = makeIssue('AXAG_SIDE_EFFECT_MISSING', { intent: 't.x', message: 'Required side effect "sent" was not reported' });
    expect(llmMessage({ tool: 't.x', errors: [missing], warnings: [], phase: 'post' })).toContain(
      'Do not call t.x again to make up for it',
    );
    const unknown = makeIssue('AXAG_UNKNOWN_TOOL', { intent: 't.x', message: 'no contract', path: '$.tool' });
    expect(llmMessage({ tool: 't.x', errors: [unknown], warnings: [], phase: 'post' })).toContain('tell the user it is unverified');
    expect(llmMessage({ tool: 't.x', errors: [], warnings: [], phase: 'post' })).toBe('The result of t.x passed validation.');
  });
});
