/**
 * What a tenant can subscribe a webhook to. Browser-safe (the dashboard lists them).
 * - approval.pending: a new approval waits in the queue, or an approval was escalated to a
 *   higher role's queue (then `data.approval.escalation_level` > 0).
 * - approval.decided: an approval reached its final state: approved, denied, or expired (which
 *   means denied: nothing undecided is ever approved).
 */
export const WEBHOOK_EVENTS = ['approval.pending', 'approval.decided'] as const;
export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number];
