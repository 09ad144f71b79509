import { compileContract, type CompiledContract } from '@/lib/contracts/compile-contract';
import type { ToolContractInput } from '@/lib/contracts/contract-schema';

/** Test helper: compiles a contract or fails loudly with its problems. */
export function compileOrThrow(document: ToolContractInput | unknown): CompiledContract {
  const result = compileContract(document);
  if (!result.ok) throw new Error(`contract did not compile: ${JSON.stringify(result.problems)}`);
  return result.contract;
}

/** One contract exercising every argument-level check. */
export const kitchenSinkContract: ToolContractInput = {
  id: 'test.kitchen_sink',
  version: '1.0.0',
  description: 'Exercises every runtime check.',
  owner: 'tests',
  input: {
    type: 'object',
    required: ['tenant_id', 'user_id', 'quantity', 'name'],
    additionalProperties: false,
    properties: {
      tenant_id: { type: 'string' },
      user_id: { type: 'string' },
      quantity: { type: 'integer', minimum: 1, maximum: 10 },
      name: { type: 'string', minLength: 2, maxLength: 20 },
      color: { enum: ['red', 'green'] },
      email: { type: 'string', format: 'email' },
      sku: { type: 'string', pattern: '^[A-Z]{3}-\\d{4}$' },
      step: { type: 'integer', multipleOf: 5 },
      items: { type: 'array', items: { type: 'object', properties: { sku: { type: 'string' } }, required: ['sku'] } },
      note: { type: ['string', 'null'] },
    },
  },
  output: {
    type: 'object',
    required: ['order_id'],
    properties: { order_id: { type: 'string' }, total: { type: 'integer', minimum: 0 } },
  },
  errors: { type: 'object', required: ['code'], properties: { code: { type: 'string' } } },
  annotations: {
    kind: 'mutation',
    side_effect_level: 'write',
    idempotent: false,
    required_roles: ['shopper', 'admin'],
  },
  scope: { tenant: 'tenant_id', user: 'user_id' },
  preconditions: [
    {
      id: 'not_blocked',
      expression: '!("blocked" in context.state) || context.state.blocked == false',
      message: 'the account must not be blocked',
      suggestion: 'Ask support to unblock the account',
    },
    { id: 'small_order', expression: 'args.quantity + 1 <= 10', message: 'at most 9 items per order' },
  ],
  postconditions: [{ id: 'total_positive', expression: 'result.total > 0', message: 'total must be positive' }],
  side_effects: [
    { id: 'stock_reserved', description: 'Stock is reserved.', required: true },
    { id: 'email_sent', description: 'An e-mail is sent.' },
  ],
};

export const validArgs = { tenant_id: 't1', user_id: 'u1', quantity: 3, name: 'Ada' };
export const callerContext = { tenant_id: 't1', user_id: 'u1', roles: ['shopper'], state: { blocked: false } };
