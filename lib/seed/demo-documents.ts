import type { ToolContract } from '../contracts/contract-schema';

// What the demo tenant's support agent works with besides the example contracts
// (lib/contracts/examples.ts): a tool of its own whose calls the limits count, the policies a
// team would write for such an agent, and the agent's tool surface. Every one is published
// through the same services the studio uses, so each must pass the linter.

const WEEK_SECONDS = 7 * 24 * 3600;

/** Store credit for a customer whose order went wrong: frequent, cheap, and limited by policy. */
export const issueCreditContract: ToolContract = {
  id: 'support.issue_credit',
  version: '1.0.0',
  description:
    "Gives a customer store credit for a problem with one of their orders (late, damaged, goodwill). Credited to the customer's account at once.",
  owner: 'team-support',
  input: {
    type: 'object',
    required: ['tenant_id', 'user_id', 'order_id', 'amount_cents', 'reason'],
    additionalProperties: false,
    properties: {
      tenant_id: { type: 'string', minLength: 1 },
      user_id: { type: 'string', minLength: 1, maxLength: 64 },
      order_id: { type: 'string', pattern: '^ord_[a-z0-9]{6,24}$' },
      amount_cents: { type: 'integer', minimum: 1, maximum: 20_000 },
      reason: { enum: ['late_delivery', 'damaged_item', 'goodwill'] },
      note: { type: 'string', maxLength: 500 },
    },
  },
  output: {
    type: 'object',
    required: ['credit_id', 'amount_cents'],
    properties: { credit_id: { type: 'string', pattern: '^cr_[a-z0-9]+$' }, amount_cents: { type: 'integer', minimum: 1 } },
  },
  annotations: {
    kind: 'mutation',
    side_effect_level: 'write',
    idempotent: false,
    confirmation_required: false,
    approval_required: false,
    approver_roles: [],
    required_roles: ['support'],
    // Calls a policy holds wait for a person this long (a week: the demo's held credit stays in the queue).
    approval_ttl_seconds: WEEK_SECONDS,
  },
  scope: { tenant: 'tenant_id', user: 'user_id' },
  postconditions: [
    {
      id: 'credited_as_asked',
      expression: 'result.amount_cents == args.amount_cents',
      message: 'the credited amount must be the amount asked for',
    },
  ],
  retry: { max_attempts: 1 },
  timeout_ms: 5000,
};

export const DEMO_CONTRACTS: readonly ToolContract[] = [issueCreditContract];

const SUPPORT = { tenant_id: 'acme', user_id: 'cust_test', roles: ['support'] };

/** The demo's policies: a transform, a deny and an approval rule, and limits (a rate limit and a soft budget). */
export const DEMO_POLICIES: readonly Record<string, unknown>[] = [
  {
    id: 'lookup-minimisation',
    version: '1.0.0',
    description: 'The support agent never sees card payments: an order lookup that asks for them is rewritten to leave them out.',
    rules: [
      {
        id: 'drop-payments',
        tools: ['orders.lookup'],
        when: "has(args.include) && 'payments' in args.include",
        decision: 'transform',
        set: { include: ['items', 'shipments'] },
        reason: 'Payment details stay with the payments team; the lookup runs without them.',
      },
    ],
    tests: [
      {
        name: 'asking for payments runs the lookup without them',
        tool: 'orders.lookup',
        side_effect_level: 'read_only',
        arguments: { tenant_id: 'acme', order_id: 'ord_a1b2c3', include: ['items', 'payments'] },
        expect: { decision: 'transform', rule: 'drop-payments' },
      },
      {
        name: 'a plain lookup is allowed as it is',
        tool: 'orders.lookup',
        side_effect_level: 'read_only',
        arguments: { tenant_id: 'acme', order_id: 'ord_a1b2c3' },
        expect: { decision: 'allow' },
      },
    ],
  },
  {
    id: 'credit-rules',
    version: '1.0.0',
    description: 'Goodwill credits stay small; credits over 100.00 wait for an approver.',
    rules: [
      {
        id: 'goodwill-cap',
        tools: ['support.issue_credit'],
        when: "args.reason == 'goodwill' && args.amount_cents > 5000",
        decision: 'deny',
        reason: 'Goodwill credits are at most 50.00; offer 50.00 or less.',
      },
      {
        id: 'large-credits',
        tools: ['support.issue_credit'],
        when: 'args.amount_cents > 10000',
        decision: 'require_approval',
        roles: ['approver'],
        reason: 'Credits over 100.00 need an approver.',
      },
    ],
    tests: [
      {
        name: 'a goodwill credit of 80.00 is refused',
        tool: 'support.issue_credit',
        side_effect_level: 'write',
        arguments: { tenant_id: 'acme', user_id: 'cust_test', order_id: 'ord_a1b2c3', amount_cents: 8000, reason: 'goodwill' },
        context: SUPPORT,
        expect: { decision: 'deny', errors: ['AXAG_POLICY_DENIED'] },
      },
      {
        name: 'a credit of 150.00 for a damaged item waits for an approver',
        tool: 'support.issue_credit',
        side_effect_level: 'write',
        arguments: { tenant_id: 'acme', user_id: 'cust_test', order_id: 'ord_a1b2c3', amount_cents: 15000, reason: 'damaged_item' },
        context: SUPPORT,
        expect: { decision: 'require_approval', rule: 'large-credits' },
      },
    ],
  },
  {
    id: 'credit-limits',
    version: '1.0.0',
    description: 'At most five credits per customer an hour, and a daily credit budget past which every credit needs an approver.',
    limits: [
      {
        id: 'credits-per-customer',
        tools: ['support.issue_credit'],
        per: 'user',
        window: '1h',
        max_calls: 5,
        reason: 'At most five credits per customer an hour',
      },
      {
        id: 'daily-credit-budget',
        tools: ['support.issue_credit'],
        per: 'tenant',
        window: '1d',
        max_sum: { path: 'amount_cents', value: 100_000 },
        when_exceeded: 'require_approval',
        roles: ['approver'],
        reason: 'Credits beyond 1,000.00 a day need an approver',
      },
    ],
    tests: [
      {
        name: 'the sixth credit for one customer in an hour is refused',
        tool: 'support.issue_credit',
        side_effect_level: 'write',
        arguments: { tenant_id: 'acme', user_id: 'cust_test', order_id: 'ord_a1b2c3', amount_cents: 500, reason: 'late_delivery' },
        context: SUPPORT,
        history: [50, 40, 30, 20, 10].map((minutes) => ({ tool: 'support.issue_credit', seconds_ago: minutes * 60 })),
        expect: { decision: 'deny', errors: ['AXAG_RATE_LIMITED'] },
      },
    ],
  },
];

/** The support agent's tool surface: the contracts it may call, its ceiling and its prompt. */
export const DEMO_SURFACE: Record<string, unknown> = {
  id: 'support-agent',
  version: '1.0.0',
  description:
    'The customer support agent: looks up orders, credits customers for problems, and asks for refunds, which a person approves.',
  tools: [
    { contract: 'orders.lookup', executor: 'orders-service' },
    { contract: 'support.issue_credit', executor: 'support-service' },
    { contract: 'payments.refund', executor: 'payments-service' },
  ],
  policy: { tools: ['orders.*', 'support.*', 'payments.refund'], side_effect_ceiling: 'external' },
  approval_policy: { rules: [{ tools: ['payments.refund'], roles: ['approver'] }] },
  system:
    'You help Acme customers with their orders. Look the order up with orders.lookup before you answer anything about it. ' +
    'For a late or damaged order, offer store credit with support.issue_credit. Ask for a refund with payments.refund only when ' +
    'the customer wants their money back; a person approves every refund, so tell the customer it may take a while.',
  tool_search: false,
};
