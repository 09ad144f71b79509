import { beforeAll, describe, expect, it } from 'vitest';
import { lookupOrderContract, refundPaymentContract } from '@/lib/contracts/examples';
import { db } from '@/lib/db';
import { recordEvidence } from '@/lib/evidence/record-evidence';
import { rebuildRollups } from '@/lib/rollups/rebuild-rollups';
import { traceIdFor } from '@/lib/evidence/trace-id';
import { call } from '@/lib/testing/api-client';
import { createTestTenant, publishContract } from '@/lib/testing/fixtures';
import { validatePostHandler as validatePost, validatePreHandler as validatePre } from '@/lib/api/handlers/validate';
import { overviewHandler as overview } from '@/lib/api/handlers/overview';

let t: Awaited<ReturnType<typeof createTestTenant>>;
let other: Awaited<ReturnType<typeof createTestTenant>>;

const lookup = (callId: string, orderId: string) =>
  call(validatePre, {
    key: t.agentKey,
    body: { tool: 'orders.lookup', call_id: callId, arguments: { tenant_id: 'acme', order_id: orderId }, context: { tenant_id: 'acme' } },
  });
const refund = (callId: string, amountCents: number) =>
  call(validatePre, {
    key: t.agentKey,
    body: {
      tool: 'payments.refund',
      call_id: callId,
      arguments: { tenant_id: 'acme', payment_id: 'pay_abcdefgh12', amount_cents: amountCents, reason: 'duplicate' },
      context: { tenant_id: 'acme', user_id: 'u', roles: ['support'], state: { payment_status: 'captured' } },
    },
  });

beforeAll(async () => {
  t = await createTestTenant();
  other = await createTestTenant();
  await publishContract(t.tenant.id, lookupOrderContract);
  await publishContract(t.tenant.id, refundPaymentContract);
});

describe('GET /api/v1/overview', () => {
  it('is all zeros, with no last record, before any call', async () => {
    const res = await call(overview, { key: t.adminKey });
    expect(res.status).toBe(200);
    expect(res.body.hour.current).toMatchObject({ calls: 0, refusals: 0, held_for_approval: 0, post_checks: 0, post_failures: 0 });
    expect(res.body.evidence_chain).toMatchObject({ valid: null, records_checked: 0, first_broken: null });
    expect(res.body).toMatchObject({
      calls: 0,
      refusals: 0,
      held_for_approval: 0,
      shadow_differences: 0,
      pending_approvals: 0,
      top_codes: [],
      last_record_at: null,
    });
    expect(new Date(res.body.until).getTime() - new Date(res.body.since).getTime()).toBe(24 * 3_600_000);
  });

  it('counts the last 24 hours and the last hour against the day before: calls, refusals, held, post-call failures, pending approvals, codes, shadow differences; checks the chain', async () => {
    // A refusal from two days ago (the tenant's first record) is outside the window.
    const old = await lookup('bad-old', 'BAD');
    const oldDate = new Date(Date.now() - 2 * 86_400_000);
    await db().evidence.update({ where: { id: old.body.evidence_id }, data: { createdAt: oldDate } });
    await db().violation.updateMany({ where: { evidenceId: old.body.evidence_id }, data: { createdAt: oldDate } });
    // Backdated behind the writer's back: its rollups are recounted.
    await rebuildRollups({ tenantId: t.tenant.id });
    for (let i = 0; i < 3; i++) expect((await lookup(`bad-${i}`, 'BAD')).body.decision).toBe('deny');
    for (let i = 0; i < 2; i++) expect((await lookup(`ok-${i}`, 'ord_abc123')).body.decision).toBe('allow');
    expect((await refund('refund-pending', 500)).body.decision).toBe('require_approval');
    // Different arguments: the same call again would reuse the pending approval.
    const expiring = await refund('refund-expired', 700);
    expect(expiring.body.decision).toBe('require_approval');
    expect(expiring.body.approval.id).not.toBe(
      (await db().approval.findFirstOrThrow({ where: { tenantId: t.tenant.id, callId: 'refund-pending' } })).id,
    );
    // An approval past its deadline is no longer pending, whatever its stored status says.
    await db().approval.update({ where: { id: expiring.body.approval.id }, data: { expiresAt: new Date(Date.now() - 1000) } });
    await recordEvidence({
      tenantId: t.tenant.id,
      kind: 'pre',
      requestId: 'req-shadow',
      traceId: traceIdFor(t.tenant.id, 'shadow-1'),
      callId: 'shadow-1',
      tool: 'orders.lookup',
      argsHash: 'c'.repeat(64),
      decision: 'allow',
      valid: true,
      errors: [],
      warnings: [],
      durationMs: 1,
      shadowDiffers: true,
    });

    // validate/post: a result the contract accepts, and one it does not (a post-call failure).
    const post = (callId: string, result: unknown) =>
      call(validatePost, {
        key: t.agentKey,
        body: {
          tool: 'orders.lookup',
          call_id: callId,
          arguments: { tenant_id: 'acme', order_id: 'ord_abc123' },
          context: { tenant_id: 'acme' },
          result,
        },
      });
    expect((await post('ok-0', { order_id: 'ord_abc123', status: 'shipped' })).body.decision).toBe('allow');
    expect((await post('ok-1', { status: 'shipped' })).body.decision).toBe('deny');

    const res = await call(overview, { key: t.adminKey });
    expect(res.body).toMatchObject({ calls: 8, refusals: 3, held_for_approval: 2, shadow_differences: 1, pending_approvals: 1 });
    // Everything but the moved record is from the last minutes: the last hour is the day, and
    // nothing happened a day earlier (the moved record is older than both windows).
    const recent = { calls: 8, refusals: 3, held_for_approval: 2, post_checks: 2, post_failures: 1 };
    const none = { calls: 0, refusals: 0, held_for_approval: 0, post_checks: 0, post_failures: 0 };
    expect(res.body.hour).toMatchObject({ current: recent, previous: none });
    expect(res.body.day).toMatchObject({ current: recent, previous: none });
    // Moving the first record back in time changed what its hash covers; the chain check says so.
    expect(res.body.evidence_chain).toMatchObject({
      valid: false,
      records_checked: 0,
      from_seq: 1,
      to_seq: 11,
      first_broken: { seq: 1, reason: 'hash_mismatch' },
    });
    expect(res.body.webhooks).toMatchObject({ endpoints: 0, delivered: 0, failed: 0, oldest_pending_at: null, failing_endpoints: [] });
    expect(res.body.top_codes[0]).toEqual({ code: 'AXAG_PATTERN_MISMATCH', count: 3 });
    // The two held refunds are approval holds, counted by kind and left out of the noisiest codes.
    expect(res.body.top_codes.map((c: { code: string }) => c.code)).not.toContain('AXAG_APPROVAL_MISSING');
    expect(res.body.refusal_kinds).toEqual([
      { kind: 'arguments', hour: { current: 3, previous: 0 }, day: { current: 3, previous: 0 }, spike: false },
      { kind: 'policy', hour: { current: 0, previous: 0 }, day: { current: 0, previous: 0 }, spike: false },
      { kind: 'approval', hour: { current: 2, previous: 0 }, day: { current: 2, previous: 0 }, spike: false },
      { kind: 'tool', hour: { current: 1, previous: 0 }, day: { current: 1, previous: 0 }, spike: false },
    ]);
    expect(new Date(res.body.last_record_at).getTime()).toBeGreaterThan(Date.now() - 60_000);
  });

  it('is scoped to the tenant and needs an admin key or a session', async () => {
    const theirs = await call(overview, { key: other.adminKey });
    expect(theirs.body).toMatchObject({ calls: 0, refusals: 0, pending_approvals: 0, top_codes: [], last_record_at: null });
    expect(theirs.body.hour.current.calls).toBe(0);
    expect(theirs.body.evidence_chain).toMatchObject({ valid: null, records_checked: 0 });
    expect((await call(overview, { key: t.agentKey })).status).toBe(403);
    expect((await call(overview, {})).status).toBe(401);
  });

  it('refuses a NUL in a query value, and unknown query parameters, as the list routes do; the page tenant is not one', async () => {
    const nul = await call(overview, { key: t.adminKey, path: '/api/v1/overview?x=%00' });
    expect([nul.status, nul.body.error?.code]).toEqual([400, 'bad_request']);
    const unknown = await call(overview, { key: t.adminKey, path: '/api/v1/overview?x=1' });
    expect([unknown.status, unknown.body.error?.code]).toEqual([400, 'bad_request']);
    expect(JSON.stringify(unknown.body.error)).toContain('x');
    expect((await call(overview, { key: t.adminKey, path: `/api/v1/overview?tenant_id=${t.tenant.id}` })).status).toBe(200);
    expect((await call(overview, { key: t.adminKey, path: '/api/v1/overview' })).status).toBe(200);
  });
});
