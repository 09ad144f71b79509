import type { CallContext } from '../validation/call-context';

// The demo tenant's last week, as a script of what its support agent did: calls to validate,
// what the tools returned, and what a person decided on held calls. Planned here without a
// database, from a fixed random seed, so every demo tells the same story relative to its first
// start; lib/seed/seed-demo-calls.ts plays it through the real decision path.

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
/** How far back the demo's traffic goes. */
export const DEMO_DAYS = 7;

export interface DemoPreCall {
  tool: string;
  call_id: string;
  arguments: Record<string, unknown>;
  context: CallContext;
  redeem_approval?: boolean;
}

/** What the tool did, reported to validate/post: only for calls the gate let run. */
export interface DemoOutcome {
  result: Record<string, unknown>;
  side_effects?: { id: string }[];
  execution_ms: number;
}

export type DemoStep = { at: number } & (
  | { kind: 'pre'; request: DemoPreCall; /** Names the approval this call may be held for. */ hold?: string }
  | { kind: 'post'; callId: string; outcome: DemoOutcome }
  | { kind: 'decide'; hold: string; decision: 'approve' | 'deny'; comment: string }
);

/** mulberry32: small, fast, and the same numbers on every machine. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const TENANT = 'acme';
const ALPHABET = 'abcdefghijklmnopqrstuvwxyz0123456789';

class Script {
  readonly steps: DemoStep[] = [];
  private calls = 0;

  constructor(readonly rng: () => number) {}

  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.rng() * items.length)] as T;
  }

  between(low: number, high: number): number {
    return low + Math.floor(this.rng() * (high - low + 1));
  }

  id(prefix: string, length: number): string {
    let out = prefix;
    for (let i = 0; i < length; i++) out += ALPHABET[Math.floor(this.rng() * ALPHABET.length)];
    return out;
  }

  customer(): string {
    return `cust_${1000 + this.between(0, 59) * 37}`;
  }

  context(user: string, extra: Partial<CallContext> = {}): CallContext {
    return { tenant_id: TENANT, user_id: user, session_id: this.id('sess_', 10), roles: ['support'], ...extra };
  }

  pre(at: number, tool: string, args: Record<string, unknown>, context: CallContext, extra: { hold?: string; callId?: string } = {}) {
    const callId = extra.callId ?? `call_${(++this.calls).toString(36).padStart(4, '0')}${this.id('', 8)}`;
    const request: DemoPreCall = { tool, call_id: callId, arguments: args, context };
    this.steps.push({ at, kind: 'pre', request, ...(extra.hold ? { hold: extra.hold } : {}) });
    return callId;
  }

  post(at: number, callId: string, outcome: DemoOutcome): void {
    this.steps.push({ at, kind: 'post', callId, outcome });
  }

  /** A lookup and, when the gate lets it run, its result; `status` breaks the contract's output on purpose. */
  lookup(at: number, context: CallContext, order: string, options: { include?: string[]; status?: string; returned?: string } = {}) {
    const args = { tenant_id: TENANT, order_id: order, ...(options.include ? { include: options.include } : {}) };
    const callId = this.pre(at, 'orders.lookup', args, context);
    const ms = this.between(40, 380);
    const result = {
      order_id: options.returned ?? order,
      status: options.status ?? this.pick(['paid', 'shipped', 'shipped', 'pending_payment']),
      placed_at: new Date(at - this.between(1, 20) * DAY).toISOString(),
    };
    this.post(at + ms + 150, callId, { result, execution_ms: ms });
    return at + ms + this.between(20, 90) * 1000;
  }

  credit(
    at: number,
    context: CallContext,
    order: string,
    amount: number,
    reason: string,
    options: { credited?: number; hold?: string } = {},
  ) {
    const args = { tenant_id: TENANT, user_id: context.user_id, order_id: order, amount_cents: amount, reason };
    const callId = this.pre(at, 'support.issue_credit', args, context, { hold: options.hold });
    const ms = this.between(120, 600);
    this.post(at + ms + 150, callId, {
      result: { credit_id: this.id('cr_', 10), amount_cents: options.credited ?? amount },
      execution_ms: ms,
    });
    return at + ms + this.between(20, 90) * 1000;
  }
}

/** One conversation of the support agent with a customer, starting at `at`; `r` picks what kind. */
function conversation(s: Script, at: number, r = s.rng()): void {
  const user = s.customer();
  const context = s.context(user);
  const order = s.id('ord_', 8);
  let t = at;
  if (r < 0.42) {
    // Where is my order? A few lookups ask for payments too, which the policy leaves out.
    const include = s.rng() < 0.14 ? ['items', 'payments'] : s.rng() < 0.25 ? ['items'] : undefined;
    const broken = s.rng();
    // Now and then the orders service answers with a status the contract does not know, or another order.
    const status = broken < 0.05 ? 'refunded' : undefined;
    const returned = broken > 0.95 ? s.id('ord_', 8) : undefined;
    s.lookup(t, context, order, { include, status, returned });
  } else if (r < 0.52) {
    t = s.lookup(t, context, order);
    s.lookup(t, context, s.id('ord_', 8), { include: ['shipments'] });
  } else if (r < 0.74) {
    // A late or damaged order: look it up, then credit the customer.
    t = s.lookup(t, context, order, { include: ['shipments'] });
    const reason = s.pick(['late_delivery', 'late_delivery', 'damaged_item', 'goodwill']);
    const amount = s.between(10, 60) * 50;
    // Sometimes the credit service credits another amount than asked: the postcondition catches it.
    s.credit(t, context, order, amount, reason, { credited: s.rng() < 0.08 ? amount * 10 : undefined });
  } else if (r < 0.8) {
    // Too generous: the policy refuses a goodwill credit over 50.00, and the agent offers 50.00.
    t = s.lookup(t, context, order);
    s.pre(
      t,
      'support.issue_credit',
      { tenant_id: TENANT, user_id: user, order_id: order, amount_cents: 7500, reason: 'goodwill' },
      context,
    );
    s.credit(t + s.between(15, 40) * 1000, context, order, 5000, 'goodwill');
  } else if (r < 0.9) {
    agentMistake(s, t, context, order);
  } else if (r < 0.95) {
    // The model copied another tenant's id from the conversation: the scope check refuses it.
    s.pre(t, 'orders.lookup', { tenant_id: 'globex', order_id: order }, context);
  } else {
    // A credit for another customer than the one the agent serves.
    const other = s.customer();
    s.pre(
      t,
      'support.issue_credit',
      { tenant_id: TENANT, user_id: other === user ? `${user}0` : other, order_id: order, amount_cents: 1500, reason: 'late_delivery' },
      context,
    );
  }
}

/** Bad arguments from the model, mostly followed by a corrected call. */
function agentMistake(s: Script, at: number, context: CallContext, order: string, kind = s.between(0, 4)): void {
  const retry = at + s.between(10, 30) * 1000;
  if (kind === 0) {
    s.pre(at, 'orders.lookup', { tenant_id: TENANT, order_id: `ORD-${s.between(10000, 99999)}` }, context);
    s.lookup(retry, context, order);
  } else if (kind === 1) {
    s.pre(at, 'orders.lookup', { tenant_id: TENANT, order_id: order, include: ['invoices'] }, context);
    s.lookup(retry, context, order, { include: ['items'] });
  } else if (kind === 2) {
    s.pre(at, 'orders.lookup', { tenant_id: TENANT, order_id: order, expand: true }, context);
    s.lookup(retry, context, order);
  } else if (kind === 3) {
    // A tool the agent has no contract for.
    s.pre(at, 'orders.cancel', { tenant_id: TENANT, order_id: order }, context);
  } else {
    s.pre(
      at,
      'support.issue_credit',
      { tenant_id: TENANT, user_id: context.user_id, order_id: order, amount_cents: 1200, reason: 'missing_item' },
      context,
    );
    s.credit(retry, context, order, 1200, 'damaged_item');
  }
}

/** A looping agent crediting one customer again and again: past five an hour, the limit refuses. */
function creditLoop(s: Script, at: number, times: number): void {
  const context = s.context(`cust_loop${s.between(10, 99)}`);
  for (let i = 0; i < times; i++) s.credit(at + i * 100_000, context, s.id('ord_', 8), 1500, 'late_delivery');
}

/** Refunds a person decides on: one approved and run, one denied (the agent then asks again and is told why). */
function refunds(s: Script, approvedAt: number, deniedAt: number): void {
  const refund = (amount: number) => ({
    tenant_id: TENANT,
    payment_id: s.id('pay_', 12),
    amount_cents: amount,
    reason: 'requested_by_customer',
  });
  const approved = s.context(s.customer(), { state: { payment_status: 'captured' } });
  const approvedArgs = refund(4500);
  const approvedCall = s.pre(approvedAt, 'payments.refund', approvedArgs, approved, { hold: 'refund-approved' });
  s.steps.push({
    at: approvedAt + 4 * MINUTE,
    kind: 'decide',
    hold: 'refund-approved',
    decision: 'approve',
    comment: 'Parcel returned to the warehouse; refund OK.',
  });
  // The agent asks again with the same call; the gate redeems the approval for it.
  const redeemAt = approvedAt + 5 * MINUTE;
  s.steps.push({
    at: redeemAt,
    kind: 'pre',
    request: { tool: 'payments.refund', call_id: approvedCall, arguments: approvedArgs, context: approved, redeem_approval: true },
  });
  s.post(redeemAt + 1400, approvedCall, {
    result: { refund_id: s.id('re_', 12), amount_cents: 4500 },
    side_effects: [{ id: 'money_moved' }],
    execution_ms: 1200,
  });

  const denied = s.context(s.customer(), { state: { payment_status: 'captured' } });
  const deniedArgs = refund(32000);
  const deniedCall = s.pre(deniedAt, 'payments.refund', deniedArgs, denied, { hold: 'refund-denied' });
  s.steps.push({
    at: deniedAt + 6 * MINUTE,
    kind: 'decide',
    hold: 'refund-denied',
    decision: 'deny',
    comment: 'The bank already refunded this as a chargeback; nothing to refund.',
  });
  s.pre(deniedAt + 8 * MINUTE, 'payments.refund', deniedArgs, denied, { callId: deniedCall });
}

/**
 * The script for a demo whose first start is at `nowMs`: about 150 conversations over the last
 * week (busier in the day, UTC), two looping agents stopped by the rate limit, two refunds a
 * person decided, a large credit still waiting for an approver, and in the last hour a burst
 * of malformed order ids (a prompt change gone wrong) for the overview to call a spike. Each
 * kind of refusal happens in the last 24 hours too, so the overview's table has all four.
 * Steps are in time order, all before `nowMs`.
 */
export function planDemoCalls(nowMs: number): DemoStep[] {
  const s = new Script(random(18));
  for (let hour = nowMs - DEMO_DAYS * DAY; hour < nowMs - HOUR; hour += HOUR) {
    const h = new Date(hour).getUTCHours();
    const rate = h >= 8 && h < 20 ? 1.4 : h >= 6 && h < 22 ? 0.7 : 0.2;
    const count = Math.floor(rate) + (s.rng() < rate % 1 ? 1 : 0);
    for (let i = 0; i < count; i++) conversation(s, hour + s.rng() * HOUR);
  }
  // Every kind of conversation and of agent mistake at least once, whatever hour the demo starts at.
  [0.1, 0.5, 0.6, 0.77, 0.92, 0.97].forEach((r, i) => conversation(s, nowMs - 5 * DAY + i * 37 * MINUTE, r));
  for (let kind = 0; kind < 5; kind++)
    agentMistake(s, nowMs - 2 * DAY + kind * 53 * MINUTE, s.context(s.customer()), s.id('ord_', 8), kind);
  const wrong = s.context(s.customer());
  s.credit(nowMs - 3 * DAY + 5 * HOUR, wrong, s.id('ord_', 8), 1800, 'damaged_item', { credited: 18000 });
  // The last hour: ordinary traffic, and the burst.
  for (let i = 0; i < 2; i++) conversation(s, nowMs - HOUR + s.rng() * 30 * MINUTE);
  for (let i = 0; i < 9; i++) {
    const at = nowMs - 50 * MINUTE + i * 4 * MINUTE;
    const context = s.context(s.customer());
    s.pre(at, 'orders.lookup', { tenant_id: TENANT, order_id: `ORD-${s.between(10000, 99999)}` }, context);
  }
  creditLoop(s, nowMs - 4 * DAY - 3 * HOUR, 8);
  creditLoop(s, nowMs - 6 * HOUR, 7);
  // The orders service answering with a status its contract does not know: a tool failure of the last day.
  s.lookup(nowMs - 2 * HOUR, s.context(s.customer()), s.id('ord_', 8), { status: 'refunded' });
  refunds(s, nowMs - 20 * HOUR, nowMs - 3 * DAY - 2 * HOUR);
  // Still waiting for a person when the demo starts: a week before it expires.
  const held = s.context(s.customer());
  s.pre(
    nowMs - 25 * MINUTE,
    'support.issue_credit',
    { tenant_id: TENANT, user_id: held.user_id, order_id: s.id('ord_', 8), amount_cents: 15000, reason: 'damaged_item' },
    held,
    { hold: 'credit-pending' },
  );
  return s.steps.filter((step) => step.at < nowMs - 5000).sort((a, b) => a.at - b.at);
}
