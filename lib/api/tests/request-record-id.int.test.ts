import { beforeAll, describe, expect, it } from 'vitest';
import { db } from '@/lib/db';
import { lookupOrderContract, refundPaymentContract } from '@/lib/contracts/examples';
import { call } from '@/lib/testing/api-client';
import { createTestTenant, publishContract } from '@/lib/testing/fixtures';
import { traceIdFor } from '@/lib/evidence/trace-id';
import { timeOrderedId } from '@/lib/evidence/time-ordered-id';
import { newRequestId } from '@/lib/evidence/first-record-id';
import { recordEvidence, type EvidenceInput } from '@/lib/evidence/record-evidence';
import { recordAdminEvidence } from '@/lib/evidence/record-admin-evidence';
import { verifyEvidenceChain } from '@/lib/evidence/verify-evidence-chain';
import { checkEvidenceChainTail } from '@/lib/overview/evidence-chain-health';
import { PreCallRequestSchema, validatePreCall } from '@/lib/validation/validate-pre-call';
import { validatePreHandler as validatePre } from '@/lib/api/handlers/validate';
import { decideApprovalHandler as decide } from '@/lib/api/handlers/approvals';
import { getTraceHandler as trace } from '@/lib/api/handlers/traces';
import { verifyEvidenceHandler as verify } from '@/lib/api/handlers/evidence';

// A record whose request id Toolgate made takes it as its own id and stores requestId as ''
// (lib/evidence/first-record-id.ts, lib/evidence/stored-request-id.ts).

type Tenant = Awaited<ReturnType<typeof createTestTenant>>;
let t: Tenant;

const lookupBody = (callId: string) => ({
  tool: 'orders.lookup',
  call_id: callId,
  arguments: { tenant_id: 'acme', order_id: 'ord_abc123' },
  context: { tenant_id: 'acme' },
});
const lookup = (tenant: Tenant, callId: string, headers: Record<string, string> = {}) =>
  call(validatePre, { key: tenant.agentKey, body: lookupBody(callId), headers });
/** The requestId column as stored, not as the app reads it. */
const stored = (id: string) => db().evidence.findUniqueOrThrow({ where: { id }, select: { id: true, requestId: true } });
const traceOf = (tenant: Tenant, callId: string) =>
  call(trace, { key: tenant.adminKey, params: { traceId: traceIdFor(tenant.tenant.id, callId) } });

async function publishAll(tenant: Tenant) {
  await publishContract(tenant.tenant.id, lookupOrderContract);
  await publishContract(tenant.tenant.id, refundPaymentContract);
}

beforeAll(async () => {
  t = await createTestTenant();
  await publishAll(t);
});

describe('the request id of a validate/pre without x-request-id', () => {
  it("is the record's id: its requestId column holds '', and the trace shows the request id", async () => {
    const res = await lookup(t, 'made-1');
    expect(res.body.decision).toBe('allow');
    const requestId = res.headers.get('x-request-id') as string;
    expect(requestId).toMatch(/^[0-9a-hjkmnp-tv-z]{26}$/);
    expect(res.body.evidence_id).toBe(requestId);
    expect(await stored(requestId)).toEqual({ id: requestId, requestId: '' });
    const shown = await traceOf(t, 'made-1');
    expect(shown.status).toBe(200);
    expect(shown.body.records).toHaveLength(1);
    expect(shown.body.records[0]).toMatchObject({ id: requestId, request_id: requestId });
  });

  it("is never a caller's x-request-id, even one shaped like Toolgate's: stored in full, the record has an id of its own", async () => {
    const sent = timeOrderedId();
    const res = await lookup(t, 'sent-1', { 'x-request-id': sent });
    expect(res.headers.get('x-request-id')).toBe(sent);
    expect(res.body.evidence_id).not.toBe(sent);
    expect(await stored(res.body.evidence_id)).toEqual({ id: res.body.evidence_id, requestId: sent });
    expect((await traceOf(t, 'sent-1')).body.records[0]).toMatchObject({ id: res.body.evidence_id, request_id: sent });
    // The same id sent again: a second record, not a second row with one id.
    const again = await lookup(t, 'sent-2', { 'x-request-id': sent });
    expect(again.status).toBe(200);
    expect(again.body.evidence_id).not.toBe(res.body.evidence_id);
  });

  it('is made when the x-request-id sent is not a plain token, and then taken as the record id', async () => {
    const res = await lookup(t, 'bad-header', { 'x-request-id': 'not a token' });
    const requestId = res.headers.get('x-request-id') as string;
    expect(requestId).not.toBe('not a token');
    expect(res.body.evidence_id).toBe(requestId);
    expect(await stored(requestId)).toEqual({ id: requestId, requestId: '' });
  });
});

describe('records written through Prisma (side effects in the same transaction)', () => {
  it("a call held for approval and the approver's decision each take their request's id", async () => {
    const held = await call(validatePre, {
      key: t.agentKey,
      body: {
        tool: 'payments.refund',
        call_id: 'held-1',
        arguments: { tenant_id: 'acme', payment_id: 'pay_abcdefgh12', amount_cents: 500, reason: 'duplicate' },
        context: { tenant_id: 'acme', user_id: 'agent-user', roles: ['support'], state: { payment_status: 'captured' } },
      },
    });
    expect(held.body.decision).toBe('require_approval');
    const heldRequest = held.headers.get('x-request-id') as string;
    expect(held.body.evidence_id).toBe(heldRequest);
    expect(await stored(heldRequest)).toEqual({ id: heldRequest, requestId: '' });

    const decided = await call(decide, { key: t.adminKey, params: { id: held.body.approval.id }, body: { decision: 'deny' } });
    expect(decided.status).toBe(200);
    const decideRequest = decided.headers.get('x-request-id') as string;
    expect(await stored(decideRequest)).toEqual({ id: decideRequest, requestId: '' });

    const shown = await traceOf(t, 'held-1');
    expect(shown.body.records.map((r: { id: string; request_id: string; kind: string }) => [r.kind, r.id, r.request_id])).toEqual([
      ['pre', heldRequest, heldRequest],
      ['approval_decision', decideRequest, decideRequest],
    ]);
  });

  it('an administrative record written without a request id takes the one made for it', async () => {
    const recorded = await recordAdminEvidence({
      tenantId: t.tenant.id,
      kind: 'settings',
      action: 'settings_changed',
      actor: { kind: 'system' },
      details: { changed: [] },
    });
    expect(await stored(recorded.id)).toEqual({ id: recorded.id, requestId: '' });
  });
});

describe('one request, several records', () => {
  it('the first takes the request id, every later one gets an id of its own', async () => {
    const caller = { kind: 'api_key' as const, tenantId: t.tenant.id, apiKeyId: t.agentKeyId, scopes: ['validate' as const] };
    const ids = newRequestId();
    const first = await validatePreCall({ caller, request: PreCallRequestSchema.parse(lookupBody('twice-1')), ...ids, traceparent: null });
    const second = await validatePreCall({ caller, request: PreCallRequestSchema.parse(lookupBody('twice-2')), ...ids, traceparent: null });
    expect(first.evidence_id).toBe(ids.requestId);
    expect(second.evidence_id).not.toBe(ids.requestId);
    expect(await stored(first.evidence_id)).toEqual({ id: ids.requestId, requestId: '' });
    expect(await stored(second.evidence_id)).toEqual({ id: second.evidence_id, requestId: ids.requestId });
    expect((await traceOf(t, 'twice-2')).body.records[0].request_id).toBe(ids.requestId);
  });

  it('two records that bring the same id in one batch: the second gets a new one, and both commit', async () => {
    const requestId = timeOrderedId();
    const input = (callId: string): EvidenceInput => ({
      tenantId: t.tenant.id,
      kind: 'pre',
      requestId,
      recordId: requestId,
      traceId: traceIdFor(t.tenant.id, callId),
      callId,
      tool: 'orders.lookup',
      argsHash: '0'.repeat(64),
      decision: 'allow',
      valid: true,
      errors: [],
      warnings: [],
      durationMs: 1,
    });
    const [a, b] = await Promise.all([recordEvidence(input('batch-1')), recordEvidence(input('batch-2'))]);
    expect(new Set([a.id, b.id]).size).toBe(2);
    expect([a.id, b.id]).toContain(requestId);
    const other = a.id === requestId ? b.id : a.id;
    expect(await stored(other)).toEqual({ id: other, requestId });
  });
});

describe('verification', () => {
  it('recomputes hashes with the real request id, and breaks at a record whose id was edited', async () => {
    const v = await createTestTenant();
    await publishAll(v);
    const made = await lookup(v, 'v-1');
    await lookup(v, 'v-2', { 'x-request-id': 'caller-id-1' });
    const third = await lookup(v, 'v-3');
    expect(third.body.evidence_id).toBe(third.headers.get('x-request-id'));

    const full = { key: v.adminKey, path: '/api/v1/evidence/verify?mode=full' };
    expect((await call(verify, full)).body).toMatchObject({ valid: true, records: 3, firstBroken: null });
    // The incremental verification, from the checkpoint the first recorded (its records read through Prisma).
    expect((await call(verify, { key: v.adminKey })).body).toMatchObject({ valid: true });
    expect(await verifyEvidenceChain({ tenantId: v.tenant.id })).toMatchObject({ valid: true, records: 3 });
    expect(await checkEvidenceChainTail({ tenantId: v.tenant.id })).toMatchObject({ valid: true, records_checked: 3 });

    // Someone with write access gives the first record another id: what its '' stood for changes.
    const id = made.body.evidence_id as string;
    const edited = timeOrderedId();
    await db().evidence.update({ where: { id }, data: { id: edited } });
    const broken = await call(verify, full);
    expect(broken.body.valid).toBe(false);
    expect(broken.body.firstBroken).toMatchObject({ seq: 1, reason: 'hash_mismatch' });
    expect(await verifyEvidenceChain({ tenantId: v.tenant.id })).toMatchObject({
      valid: false,
      firstBroken: { seq: 1, reason: 'hash_mismatch' },
    });

    await db().evidence.update({ where: { id: edited }, data: { id } });
    expect((await call(verify, full)).body).toMatchObject({ valid: true, records: 3 });
  });
});
