import type { ToolContractInput } from './contract-schema';

/**
 * Starters for the studio's "new contract" page, one per kind of risk: a read-only query, an
 * external write the user confirms, and a destructive action an approver signs off. Each is a
 * complete contract that compiles and lints clean, so the author edits rather than fills in,
 * and sees on a working example what a scope, a condition or a declared side effect looks like.
 */

export interface ContractTemplate {
  id: string;
  title: string;
  description: string;
  document: Record<string, unknown>;
}

const errorsSchema = {
  type: 'object',
  required: ['code', 'message'],
  properties: { code: { type: 'string' }, message: { type: 'string' } },
};

const readOnlyQuery = {
  id: 'orders.lookup',
  version: '0.1.0',
  description: 'Looks up one order of the calling tenant by its id and returns its status and total. Changes nothing.',
  owner: 'team-commerce',
  input: {
    type: 'object',
    required: ['tenant_id', 'order_id'],
    additionalProperties: false,
    properties: {
      tenant_id: { type: 'string', minLength: 1, maxLength: 64, description: 'The tenant the order belongs to.' },
      order_id: { type: 'string', pattern: '^ord_[a-z0-9]{6,24}$', description: 'Order id, e.g. ord_4f9a2c1e.' },
      include: {
        type: 'array',
        uniqueItems: true,
        maxItems: 3,
        items: { enum: ['items', 'payments', 'shipments'] },
        description: 'Related records to return with the order.',
      },
    },
  },
  output: {
    type: 'object',
    required: ['order_id', 'status', 'total_cents'],
    properties: {
      order_id: { type: 'string' },
      status: { enum: ['pending_payment', 'paid', 'shipped', 'cancelled'] },
      total_cents: { type: 'integer', minimum: 0 },
      placed_at: { type: 'string', format: 'date-time' },
    },
  },
  errors: errorsSchema,
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
    { id: 'same_order', expression: 'result.order_id == args.order_id', message: 'the returned order must be the one asked for' },
  ],
  retry: { max_attempts: 3, backoff_ms: 200 },
  timeout_ms: 5000,
} satisfies ToolContractInput;

const externalWriteWithConfirmation = {
  id: 'email.send',
  version: '0.1.0',
  description:
    'Sends an e-mail on behalf of the signed-in user to at most 10 recipients. The user confirms each message before it is sent.',
  owner: 'team-messaging',
  input: {
    type: 'object',
    required: ['tenant_id', 'user_id', 'to', 'subject', 'body'],
    additionalProperties: false,
    properties: {
      tenant_id: { type: 'string', minLength: 1, maxLength: 64 },
      user_id: { type: 'string', minLength: 1, maxLength: 64, description: 'The sender; must be the signed-in user.' },
      to: { type: 'array', minItems: 1, maxItems: 10, uniqueItems: true, items: { type: 'string', format: 'email' } },
      subject: { type: 'string', minLength: 1, maxLength: 200 },
      body: { type: 'string', minLength: 1, maxLength: 20000, description: 'Plain text.' },
    },
  },
  output: {
    type: 'object',
    required: ['message_id'],
    properties: { message_id: { type: 'string' }, accepted: { type: 'array', items: { type: 'string' } } },
  },
  errors: errorsSchema,
  annotations: {
    kind: 'mutation',
    side_effect_level: 'external',
    // Sending twice sends two e-mails; repeats get duplicate-call warnings.
    idempotent: false,
    confirmation_required: true,
    approval_required: false,
    approver_roles: [],
    required_roles: ['member'],
  },
  scope: { tenant: 'tenant_id', user: 'user_id' },
  preconditions: [
    {
      id: 'under_daily_limit',
      expression: '!has(context.state.sent_today) || context.state.sent_today + size(args.to) <= 200',
      message: 'a user may send to at most 200 recipients a day',
      suggestion: 'Tell the user the daily limit is reached and offer to send tomorrow',
    },
  ],
  side_effects: [{ id: 'email_sent', description: 'The e-mail leaves the system and cannot be recalled.', required: true }],
  sensitive: ['body'],
  retry: { max_attempts: 1 },
  timeout_ms: 15000,
} satisfies ToolContractInput;

const destructiveWithApproval = {
  id: 'accounts.delete',
  version: '0.1.0',
  description:
    'Permanently deletes a customer account of the calling tenant and all its data. Cannot be undone; an admin approves every call.',
  owner: 'team-identity',
  input: {
    type: 'object',
    required: ['tenant_id', 'account_id', 'reason'],
    additionalProperties: false,
    properties: {
      tenant_id: { type: 'string', minLength: 1, maxLength: 64 },
      account_id: { type: 'string', pattern: '^acc_[a-z0-9]{8,32}$' },
      reason: { enum: ['customer_request', 'fraud', 'duplicate'] },
      note: { type: 'string', maxLength: 1000, description: 'Shown to the approver.' },
    },
  },
  output: {
    type: 'object',
    required: ['account_id', 'deleted'],
    properties: { account_id: { type: 'string' }, deleted: { const: true } },
  },
  errors: errorsSchema,
  annotations: {
    kind: 'mutation',
    side_effect_level: 'destructive',
    // Deleting an account that is already gone changes nothing more.
    idempotent: true,
    idempotency_strategy: 'natural',
    confirmation_required: false,
    approval_required: true,
    approver_roles: ['admin'],
    approval_ttl_seconds: 3600,
    required_roles: ['support_lead', 'admin'],
  },
  scope: { tenant: 'tenant_id' },
  preconditions: [
    {
      id: 'no_open_balance',
      expression: 'has(context.state.open_balance_cents) && context.state.open_balance_cents == 0',
      message: 'an account with an open balance cannot be deleted',
      suggestion: 'Settle or refund the open balance first, then retry',
    },
    {
      id: 'not_on_legal_hold',
      expression: '!has(context.state.legal_hold) || context.state.legal_hold == false',
      message: 'an account under legal hold must be kept',
      suggestion: 'Ask legal to lift the hold first',
    },
  ],
  postconditions: [
    {
      id: 'deleted_requested_account',
      expression: 'result.account_id == args.account_id',
      message: 'the deleted account must be the one asked for',
    },
  ],
  side_effects: [{ id: 'account_deleted', description: 'The account and its data are erased.', required: true }],
  sensitive: ['note'],
  retry: { max_attempts: 1 },
  timeout_ms: 30000,
} satisfies ToolContractInput;

export const CONTRACT_TEMPLATES: readonly ContractTemplate[] = [
  {
    id: 'read-only-query',
    title: 'Read-only query',
    description: 'Looks something up and changes nothing: safe to retry, no confirmation or approval.',
    document: readOnlyQuery,
  },
  {
    id: 'external-write-confirmation',
    title: 'External write, confirmed by the user',
    description: 'Reaches outside your systems (here: sends an e-mail); the end user confirms each call.',
    document: externalWriteWithConfirmation,
  },
  {
    id: 'destructive-approval',
    title: 'Destructive action, approved by an admin',
    description: 'Cannot be undone (here: deletes an account); an approver signs off each call, and preconditions guard it.',
    document: destructiveWithApproval,
  },
];
