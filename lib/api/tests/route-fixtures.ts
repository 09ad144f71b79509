/** Requests the route-table tests (every route, its queries, odd input) seed their tenant with. */

/** An MCP tool as a server reports it. */
export const SEARCH_TOOL = {
  name: 'search',
  description: 'Searches.',
  inputSchema: { type: 'object', properties: { q: { type: 'string' } } },
  annotations: { readOnlyHint: true },
};

/** A refund the demo policies hold for approval (over the support role's limit). */
export function refundCall(callId: string) {
  return {
    tool: 'payments.refund',
    call_id: callId,
    arguments: {
      tenant_id: 'acme',
      payment_id: 'pay_abcdefgh12',
      reason: 'duplicate',
      amount_cents: 90_000,
      card: { last4: '4242', holder_name: 'Ada Lovelace' },
    },
    context: { tenant_id: 'acme', user_id: 'u1', roles: ['support'], state: { payment_status: 'captured' } },
  };
}
