import { describe, expect, it } from 'vitest';
import { checkPreCall } from './check-pre-call';
import { makeIssue } from './error-codes';
import { llmMessage, MAX_LLM_MESSAGE_CHARS, primaryErrorEnvelope } from './llm-message';
import { callerContext, compileOrThrow, kitchenSinkContract, validArgs } from './test-contracts';

const contract = compileOrThrow(kitchenSinkContract);

describe('llmMessage', () => {
  it('names the tool, each problem with field and fix, and the next step', () => {
    const { errors, warnings } = checkPreCall({ contract, arguments: { ...validArgs, quantity: 12, colour: 'red' }, context: callerContext });
    const text = llmMessage({ tool: 'test.kitchen_sink', errors, warnings });
    expect(text).toContain('test.kitchen_sink was refused with 2 problems');
    expect(text).toContain('quantity must be <= 10, got 12');
    expect(text).toContain('$.colour');
    expect(text).toContain('Fix: Choose a value inside the declared bounds.');
    expect(text).toMatch(/Correct the arguments and call test\.kitchen_sink again/);
    expect(text).not.toContain('\n');
  });

  it('gives a safety-specific next step and stays bounded', () => {
    const confirm = makeIssue('AXAG_CONFIRMATION_MISSING', { intent: 'cart.begin_checkout', message: 'The user has not confirmed this call' });
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
    expect(primaryErrorEnvelope('cart.begin_checkout', errors)).toEqual({
      error: {
        code: 'AXAG_VALIDATION_ERROR',
        type: 'precondition_error',
        message: 'Precondition not met: cart must have at least one item',
        details: {
          intent: 'cart.begin_checkout',
          code: 'AXAG_PRECONDITION_FAILED',
          failed_precondition: 'cart must have at least one item',
          suggestion: 'Add items to cart before beginning checkout',
          path: '$',
        },
      },
    });
    expect(primaryErrorEnvelope('cart.begin_checkout', [])).toBeNull();
  });
});
