import { expect, type APIRequestContext } from '@playwright/test';
import { lookupOrderContract, refundPaymentContract } from '../lib/contracts/examples';
import { STARTER_DOCUMENTS } from '../lib/documents/starters';
import { E2E_INIT_API_KEY } from './test-env';

// Every page of the dashboard with something on it, for the specs that look at all of them
// (accessibility, layout at 1024 px, screenshots). The documents are copies under a11y.* ids,
// and the policy only names a11y.* tools, so other specs sharing the tenant decide as before.

const ADMIN = { authorization: `Bearer ${E2E_INIT_API_KEY}` };
const LOOKUP = { ...lookupOrderContract, id: 'a11y.orders_lookup' };
const REFUND = { ...refundPaymentContract, id: 'a11y.payments_refund' };
const POLICY = {
  id: 'a11y-guard',
  version: '1.0.0',
  description: 'One blocked order, so the tour has a policy refusal.',
  rules: [
    {
      id: 'blocked-order',
      tools: [LOOKUP.id],
      when: "args.order_id == 'ord_blocked1'",
      decision: 'deny',
      reason: 'this order is under investigation',
    },
  ],
};
const SURFACE = { ...STARTER_DOCUMENTS.surface, id: 'a11y-agent', version: '0.1.0' };

export interface TourPage {
  name: string;
  path: string;
  /** A studio page (the editor mounts before the page is checked); held to the same rules as the others. */
  studio?: boolean;
}

export interface Tour {
  pages: TourPage[];
  traceId: string;
}

async function post(
  request: APIRequestContext,
  url: string,
  data: unknown,
  expected: number[] = [200, 201],
): Promise<Record<string, unknown>> {
  const response = await request.post(url, { headers: ADMIN, data });
  const body = (await response.json()) as Record<string, unknown>;
  expect(expected, `${url}: ${JSON.stringify(body)}`).toContain(response.status());
  return body;
}

async function pre(request: APIRequestContext, data: Record<string, unknown>): Promise<{ decision: string; trace_id: string }> {
  return (await post(request, '/api/v1/validate/pre', data, [200])) as { decision: string; trace_id: string };
}

/**
 * Publishes the documents, makes one call of each kind (allowed and closed by validate/post,
 * refused for its arguments, refused by the policy, held for approval, an unknown tool),
 * invites someone and makes an expiring key. Idempotent enough to run once per spec file: ids are per run.
 */
export async function seedTour(request: APIRequestContext): Promise<Tour> {
  const run = Date.now().toString(36);
  const context = { tenant_id: 'acme', user_id: 'a11y-end-user' };
  // Re-publishing the same version is answered 409; the documents are the same either way.
  const documents: ['contracts' | 'policies' | 'surfaces', { id: string; version: string }][] = [
    ['contracts', LOOKUP],
    ['contracts', REFUND],
    ['policies', POLICY],
    ['surfaces', SURFACE],
  ];
  for (const [kind, doc] of documents) {
    const saved = await request.post(`/api/v1/${kind}`, { headers: ADMIN, data: doc });
    expect([200, 201, 409], `${kind} ${doc.id}`).toContain(saved.status());
    const published = await request.post(
      `/api/v1/${kind}/${encodeURIComponent(doc.id)}/versions/${encodeURIComponent(doc.version)}/publish`,
      {
        headers: ADMIN,
        data: {},
      },
    );
    expect([200, 201, 409], `publish ${kind} ${doc.id}`).toContain(published.status());
  }
  const allowed = await pre(request, {
    tool: LOOKUP.id,
    call_id: `a11y-${run}-allowed`,
    arguments: { tenant_id: 'acme', order_id: 'ord_a1b2c3' },
    context,
  });
  expect(allowed.decision).toBe('allow');
  await post(
    request,
    '/api/v1/validate/post',
    {
      tool: LOOKUP.id,
      call_id: `a11y-${run}-allowed`,
      arguments: { tenant_id: 'acme', order_id: 'ord_a1b2c3' },
      context,
      result: { order_id: 'ord_a1b2c3', status: 'paid' },
      execution_ms: 42,
    },
    [200],
  );
  const refusals = [
    { tool: LOOKUP.id, arguments: { tenant_id: 'acme', order_id: 'not-an-order' } },
    { tool: LOOKUP.id, arguments: { tenant_id: 'acme', order_id: 'ord_blocked1' } },
    { tool: 'a11y.unknown_tool', arguments: {} },
  ];
  for (const [i, call] of refusals.entries()) {
    expect((await pre(request, { ...call, call_id: `a11y-${run}-refused-${i}`, context })).decision).toBe('deny');
  }
  const held = await pre(request, {
    tool: REFUND.id,
    call_id: `a11y-${run}-held`,
    arguments: { tenant_id: 'acme', payment_id: 'pay_abcdefgh12', amount_cents: 1200, reason: 'duplicate' },
    context: { ...context, roles: ['support'], state: { payment_status: 'captured' } },
  });
  expect(held.decision).toBe('require_approval');
  await post(request, '/api/v1/members', { email: `a11y-invitee-${run}@example.com`, role: 'viewer' });
  // A key with an expiry: the API keys table shows it under the status, and must still fit 1024 px.
  await post(request, '/api/v1/api-keys', { name: `a11y agent ${run}`, scopes: ['validate'], expires_in_days: 90 });

  return {
    traceId: allowed.trace_id,
    pages: [
      { name: 'overview', path: '/' },
      { name: 'approvals', path: '/approvals' },
      { name: 'traces', path: '/traces' },
      { name: 'trace', path: `/traces/${allowed.trace_id}` },
      { name: 'violations', path: '/violations' },
      { name: 'contracts', path: '/contracts' },
      { name: 'contract', path: `/contracts/${encodeURIComponent(LOOKUP.id)}`, studio: true },
      { name: 'contract-new', path: '/contracts/new', studio: true },
      { name: 'contract-import', path: '/contracts/import' },
      { name: 'policies', path: '/policies' },
      { name: 'policy', path: `/policies/${POLICY.id}`, studio: true },
      { name: 'policy-new', path: '/policies/new', studio: true },
      { name: 'surfaces', path: '/surfaces' },
      { name: 'surface', path: `/surfaces/${SURFACE.id}`, studio: true },
      { name: 'surface-new', path: '/surfaces/new', studio: true },
      { name: 'mcp', path: '/mcp' },
      { name: 'mcp-drift-missing', path: '/mcp/a11y/tools/none/drift' },
      { name: 'api-keys', path: '/api-keys' },
      { name: 'members', path: '/members' },
      { name: 'settings', path: '/settings' },
      { name: 'account', path: '/account' },
      { name: 'not-found-in-dashboard', path: '/traces/no-such-trace' },
    ],
  };
}
