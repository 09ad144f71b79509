import type { ToolContract } from './contract-schema';

/** Realistic contracts for the demo tenant, docs and tests. Each one must compile. */

export const beginCheckoutContract: ToolContract = {
  id: 'cart.begin_checkout',
  version: '1.0.0',
  description: "Starts checkout for the caller's cart and reserves stock. Returns an order id and the total to pay.",
  owner: 'team-commerce',
  input: {
    type: 'object',
    required: ['tenant_id', 'user_id', 'items', 'currency'],
    additionalProperties: false,
    properties: {
      tenant_id: { type: 'string', minLength: 1, maxLength: 64 },
      user_id: { type: 'string', minLength: 1, maxLength: 64 },
      currency: { type: 'string', enum: ['EUR', 'USD', 'GBP'] },
      coupon: { type: 'string', pattern: '^[A-Z0-9]{4,12}$' },
      items: {
        type: 'array',
        maxItems: 50,
        items: {
          type: 'object',
          required: ['sku', 'quantity'],
          additionalProperties: false,
          properties: {
            sku: { type: 'string', pattern: '^[A-Z]{3}-\\d{4}$' },
            quantity: { type: 'integer', minimum: 1, maximum: 10 },
          },
        },
      },
      shipping_email: { type: 'string', format: 'email' },
    },
  },
  output: {
    type: 'object',
    required: ['order_id', 'total_cents', 'status'],
    properties: {
      order_id: { type: 'string' },
      total_cents: { type: 'integer', minimum: 0 },
      status: { enum: ['pending_payment'] },
    },
  },
  errors: {
    type: 'object',
    required: ['code', 'message'],
    properties: { code: { type: 'string' }, message: { type: 'string' } },
  },
  annotations: {
    kind: 'mutation',
    side_effect_level: 'write',
    idempotent: false,
    confirmation_required: true,
    approval_required: false,
    approver_roles: [],
    required_roles: ['shopper'],
  },
  scope: { tenant: 'tenant_id', user: 'user_id' },
  preconditions: [
    {
      id: 'cart_not_empty',
      expression: 'size(args.items) > 0',
      message: 'cart must have at least one item',
      suggestion: 'Add items to cart before beginning checkout',
    },
  ],
  postconditions: [
    {
      id: 'total_positive',
      expression: 'result.total_cents > 0',
      message: 'an order with items must have a positive total',
    },
  ],
  side_effects: [
    { id: 'stock_reserved', description: 'Stock for each item is reserved for 15 minutes.', required: true },
    { id: 'email_sent', description: 'A checkout e-mail is sent to the shopper.' },
  ],
  retry: { max_attempts: 1 },
  timeout_ms: 10_000,
};

export const refundPaymentContract: ToolContract = {
  id: 'payments.refund',
  version: '2.1.0',
  description: 'Refunds part or all of a captured payment to the original card.',
  owner: 'team-payments',
  input: {
    type: 'object',
    required: ['tenant_id', 'payment_id', 'amount_cents', 'reason'],
    additionalProperties: false,
    properties: {
      tenant_id: { type: 'string', minLength: 1 },
      payment_id: { type: 'string', pattern: '^pay_[A-Za-z0-9]{8,32}$' },
      amount_cents: { type: 'integer', minimum: 1, maximum: 1_000_000 },
      reason: { enum: ['duplicate', 'fraudulent', 'requested_by_customer'] },
      card: {
        type: 'object',
        additionalProperties: false,
        properties: { last4: { type: 'string', pattern: '^\\d{4}$' }, holder_name: { type: 'string', maxLength: 200 } },
      },
    },
  },
  output: {
    type: 'object',
    required: ['refund_id', 'amount_cents'],
    properties: { refund_id: { type: 'string' }, amount_cents: { type: 'integer' } },
  },
  annotations: {
    kind: 'mutation',
    side_effect_level: 'external',
    idempotent: false,
    confirmation_required: false,
    approval_required: true,
    approver_roles: ['approver'],
    required_roles: ['support', 'finance'],
    approval_ttl_seconds: 900,
  },
  scope: { tenant: 'tenant_id' },
  preconditions: [
    {
      id: 'payment_captured',
      expression: 'has(context.state.payment_status) && context.state.payment_status == "captured"',
      message: 'only captured payments can be refunded',
      suggestion: 'Check the payment status with payments.lookup first',
    },
  ],
  postconditions: [
    {
      id: 'refund_not_more_than_requested',
      expression: 'result.amount_cents <= args.amount_cents',
      message: 'the refunded amount must not exceed the requested amount',
    },
  ],
  side_effects: [{ id: 'money_moved', description: 'Money is sent back to the card issuer.', required: true }],
  sensitive: ['card.holder_name', 'card.last4'],
  retry: { max_attempts: 3, backoff_ms: 2000, retry_on: ['PSP_TIMEOUT'] },
  timeout_ms: 30_000,
};

export const lookupOrderContract: ToolContract = {
  id: 'orders.lookup',
  version: '1.3.0',
  description: 'Looks up one order of the calling tenant by id. Read-only.',
  owner: 'team-commerce',
  input: {
    type: 'object',
    required: ['tenant_id', 'order_id'],
    additionalProperties: false,
    properties: {
      tenant_id: { type: 'string', minLength: 1 },
      order_id: { type: 'string', pattern: '^ord_[a-z0-9]{6,24}$' },
      include: { type: 'array', uniqueItems: true, items: { enum: ['items', 'payments', 'shipments'] } },
    },
  },
  output: {
    type: 'object',
    required: ['order_id', 'status'],
    properties: {
      order_id: { type: 'string' },
      status: { enum: ['pending_payment', 'paid', 'shipped', 'cancelled'] },
      placed_at: { type: 'string', format: 'date-time' },
    },
  },
  annotations: {
    kind: 'query',
    side_effect_level: 'read_only',
    idempotent: true,
    idempotency_strategy: 'natural',
    confirmation_required: false,
    approval_required: false,
    approver_roles: [],
  },
  scope: { tenant: 'tenant_id' },
  postconditions: [
    { id: 'same_order', expression: 'result.order_id == args.order_id', message: 'the returned order must be the requested one' },
  ],
  retry: { max_attempts: 5, backoff_ms: 200 },
  timeout_ms: 5000,
};

export const EXAMPLE_CONTRACTS: readonly ToolContract[] = [beginCheckoutContract, refundPaymentContract, lookupOrderContract];
