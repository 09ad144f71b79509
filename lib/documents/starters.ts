import type { StudioDocumentKind } from './document-kinds';

/** What a new policy or surface starts from, so an empty page is never a dead end. */
export const STARTER_DOCUMENTS: Record<StudioDocumentKind, Record<string, unknown>> = {
  policy: {
    id: 'support-default',
    version: '0.1.0',
    description: 'What the support agent may do, and which calls need a person.',
    capability: { tools: ['orders.*', 'payments.refund', 'email.send'], side_effect_ceiling: 'external' },
    approval: { rules: [{ tools: ['payments.*'], roles: ['approver'], expires_in_seconds: 3600, approvers_required: 1 }] },
    arg_constraints: [{ tool: 'email.send', key: 'template', allowed_values: ['order_update', 'refund_notice'] }],
    rules: [
      {
        id: 'no-fraud-refunds',
        tools: ['payments.refund'],
        when: "args.reason == 'fraudulent'",
        decision: 'deny',
        reason: 'Fraud refunds go through the fraud desk, not the agent.',
      },
      {
        id: 'large-refunds',
        tools: ['payments.refund'],
        when: 'args.amount_cents > 50000',
        decision: 'escalate',
        reason: 'Refunds over 500.00 need an admin.',
        roles: ['admin'],
      },
    ],
    tests: [
      {
        name: 'a small refund needs one approver',
        tool: 'payments.refund',
        side_effect_level: 'external',
        arguments: { amount_cents: 1200, reason: 'duplicate' },
        expect: { decision: 'require_approval', rule: 'approval' },
      },
      {
        name: 'a large refund goes to an admin',
        tool: 'payments.refund',
        side_effect_level: 'external',
        arguments: { amount_cents: 90000, reason: 'duplicate' },
        expect: { decision: 'escalate', rule: 'large-refunds' },
      },
      {
        name: 'fraud refunds are refused',
        tool: 'payments.refund',
        side_effect_level: 'external',
        arguments: { amount_cents: 100, reason: 'fraudulent' },
        expect: { decision: 'deny', errors: ['AXAG_POLICY_DENIED'] },
      },
      {
        name: 'other tools are not allowed',
        tool: 'files.delete',
        side_effect_level: 'destructive',
        expect: { decision: 'deny', rule: 'capability' },
      },
    ],
  },
  surface: {
    id: 'support-agent',
    version: '0.1.0',
    description: 'The tools and prompt of the customer support agent.',
    tools: [
      {
        name: 'lookup_order',
        description: 'Looks up one order by id.',
        parameters: { type: 'object', required: ['order_id'], properties: { order_id: { type: 'string' } } },
        annotations: { kind: 'query', side_effect_level: 'read_only', inline_result: true },
        executor: 'orders-service',
      },
    ],
    policy: { tools: ['*'], side_effect_ceiling: 'write' },
    system: 'You help customers with their orders. Use lookup_order to find an order before answering questions about it.',
    tool_search: false,
  },
};
