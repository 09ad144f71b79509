import { beforeAll, describe, expect, it } from 'vitest';
import { db } from '@/lib/db';
import { hashCanonical } from '@/lib/contracts/canonical-json';
import { lookupOrderContract, refundPaymentContract } from '@/lib/contracts/examples';
import { chainRecords } from '@/lib/evidence/chain-records';
import { ensureTenantKey } from '@/lib/evidence/tenant-key';
import { evidenceHash, GENESIS_HASH } from '@/lib/evidence/evidence-hash';
import { updateTenantSettings } from '@/lib/tenants/tenant-settings';
import { call } from '@/lib/testing/api-client';
import { createTestTenant, publishContract } from '@/lib/testing/fixtures';
import { leaseValue, purgeRetainedPayloads } from './purge-retained-payloads';
import { validatePreHandler as validatePre, validatePostHandler as validatePost } from '@/lib/api/handlers/validate';
import { decideApprovalHandler as decide } from '@/lib/api/handlers/approvals';
import { verifyEvidenceHandler as verify } from '@/lib/api/handlers/evidence';
import { getTraceHandler as getTrace } from '@/lib/api/handlers/traces';
import { toStoredRecords } from '../evidence/stored-record';

let t: Awaited<ReturnType<typeof createTestTenant>>;
let other: Awaited<ReturnType<typeof createTestTenant>>;
const DAY = 24 * 3600 * 1000;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
let counter = 0;

const lookup = (key = t.agentKey) =>
  call(validatePre, {
    key,
    body: {
      tool: 'orders.lookup',
      call_id: `l-${++counter}`,
      arguments: { tenant_id: 'acme', order_id: 'ord_abc123' },
      context: { tenant_id: 'acme', user_id: 'u_1' },
    },
  });
const lookupPost = (callId: string) =>
  call(validatePost, {
    key: t.agentKey,
    body: {
      tool: 'orders.lookup',
      call_id: callId,
      arguments: { tenant_id: 'acme', order_id: 'ord_abc123' },
      result: { order_id: 'ord_abc123', status: 'paid' },
    },
  });
const refund = (amount: number) =>
  call(validatePre, {
    key: t.agentKey,
    body: {
      tool: 'payments.refund',
      call_id: `r-${++counter}`,
      arguments: {
        tenant_id: 'acme',
        payment_id: 'pay_abcdefgh12',
        amount_cents: amount,
        reason: 'duplicate',
        card: { last4: '4242', holder_name: 'Ada Lovelace' },
      },
      context: { tenant_id: 'acme', user_id: 'end-user', roles: ['support'], state: { payment_status: 'captured' } },
    },
  });
const decideAs = (id: string, body: Record<string, unknown>) => call(decide, { key: t.adminKey, params: { id }, body });
const purgeRecords = () =>
  db().evidence.findMany({ where: { tenant: { tenantId: t.tenant.id }, kind: 'retention_purge' }, orderBy: { seq: 'asc' } });
const verifyChain = async () => (await call(verify, { key: t.adminKey })).body;
// Edits behind a verified checkpoint are found by walking everything (an incremental verify reads only what is new).
const verifyWholeChain = async () => (await call(verify, { key: t.adminKey, path: '/api/v1/evidence/verify?mode=full' })).body;

/**
 * A record as written before `payloadHash` existed: arguments chained directly. Appended by
 * hand (the writer no longer makes these), as the tenant's first record, dated `at`.
 */
async function appendLegacyRecord(tenantId: string, at: Date) {
  // Its tenant's key, as the migration that added keys gave every tenant.
  const heads = new Map([[tenantId, { lane: 0, seq: 0, hash: GENESIS_HASH, tenantKey: await ensureTenantKey(tenantId) }]]);
  const input = {
    tenantId,
    kind: 'pre' as const,
    requestId: 'legacy',
    traceId: 'f'.repeat(32),
    callId: 'legacy-1',
    tool: 'orders.lookup',
    argsHash: hashCanonical({ a: 1 }),
    arguments: '{"a":1}',
    decision: 'allow',
    valid: true,
    errors: [],
    warnings: [],
    durationMs: 1,
  };
  const { rows } = chainRecords([input], heads, at);
  // Stored as then: prevHash whole, arguments chained.
  const row = { ...rows[0]!, payloadHash: null, prevHash: GENESIS_HASH };
  row.hash = evidenceHash(row);
  await db().evidence.createMany({ data: await toStoredRecords([row]) });
  await db().evidenceChainHead.create({ data: { tenantId, seq: row.seq, hash: row.hash } });
  return row;
}

let mid: Date;
let legacyId: string;
const old = { approvedId: '', pendingId: '' };
const recent = { deniedId: '', pendingId: '', evidenceId: '' };

beforeAll(async () => {
  t = await createTestTenant();
  other = await createTestTenant({ storeRawArguments: true });
  legacyId = (await appendLegacyRecord(t.tenant.id, new Date(Date.now() - 10 * DAY))).id;
  await updateTenantSettings({ tenantId: t.tenant.id, patch: { argument_retention_days: 1 }, actor: { kind: 'system' } });
  for (const contract of [lookupOrderContract, refundPaymentContract]) {
    await publishContract(t.tenant.id, contract);
    await publishContract(other.tenant.id, contract);
  }

  // Before the cutoff: calls with their payloads, an approval approved with edited arguments.
  const first = await lookup();
  expect((await lookupPost(first.body.call_id)).body.decision).toBe('allow');
  await lookup();
  const approved = await refund(1000);
  old.approvedId = approved.body.approval.id;
  expect(
    (
      await decideAs(old.approvedId, {
        decision: 'approve',
        arguments: {
          tenant_id: 'acme',
          payment_id: 'pay_abcdefgh12',
          amount_cents: 500,
          reason: 'duplicate',
          card: { last4: '[REDACTED]', holder_name: '[REDACTED]' },
        },
      })
    ).status,
  ).toBe(200);
  old.pendingId = (await refund(1001)).body.approval.id;
  expect((await lookup(other.agentKey)).body.decision).toBe('allow');

  await sleep(20);
  mid = new Date();
  await sleep(20);

  // After it: kept by a purge at mid + 1 day.
  recent.evidenceId = (await lookup()).body.evidence_id;
  recent.deniedId = (await refund(1002)).body.approval.id;
  expect((await decideAs(recent.deniedId, { decision: 'deny', comment: 'no' })).status).toBe(200);
  recent.pendingId = (await refund(1003)).body.approval.id;
});

describe('the retention purge', () => {
  it('removes the payloads of records and approvals older than the window, and only those', async () => {
    const retainedBefore = await db().evidence.count({
      where: { tenant: { tenantId: t.tenant.id }, createdAt: { lt: mid }, payloadHash: { not: null } },
    });
    expect(retainedBefore).toBe(6);
    const recentBefore = await db().evidence.findMany({
      where: { tenant: { tenantId: t.tenant.id }, createdAt: { gte: mid } },
      orderBy: { seq: 'asc' },
    });

    const reports = await purgeRetainedPayloads({ now: new Date(mid.getTime() + DAY), batchSize: 2 });
    const mine = reports.find((r) => r.tenantId === t.tenant.id);
    expect(mine).toEqual({
      tenantId: t.tenant.id,
      cutoff: mid.toISOString(),
      evidencePurged: retainedBefore,
      approvalsPurged: 1,
      legacyKept: 1,
    });

    const oldRows = await db().evidence.findMany({
      where: { tenant: { tenantId: t.tenant.id }, createdAt: { lt: mid }, payloadHash: { not: null } },
    });
    for (const row of oldRows)
      expect(row).toMatchObject({ arguments: null, payload: null, payloadHash: expect.stringMatching(/^[0-9a-f]{64}$/) });
    // Newer records keep everything, byte for byte.
    expect(
      await db().evidence.findMany({
        where: { tenant: { tenantId: t.tenant.id }, createdAt: { gte: mid }, kind: { not: 'retention_purge' } },
        orderBy: { seq: 'asc' },
      }),
    ).toEqual(recentBefore);
    expect((await db().evidence.findUniqueOrThrow({ where: { id: recent.evidenceId } })).arguments).toContain('ord_abc123');
    // The record written before payload digests keeps its arguments: removing them would break the chain.
    expect((await db().evidence.findUniqueOrThrow({ where: { id: legacyId } })).arguments).toBe('{"a":1}');

    expect(await db().approval.findUniqueOrThrow({ where: { id: old.approvedId } })).toMatchObject({
      status: 'approved',
      arguments: null,
      editedArguments: null,
      context: null,
    });
    // Pending approvals keep what approvers need, however old; a recent decision keeps its payloads too.
    expect((await db().approval.findUniqueOrThrow({ where: { id: old.pendingId } })).arguments).toContain('pay_abcdefgh12');
    expect((await db().approval.findUniqueOrThrow({ where: { id: recent.pendingId } })).arguments).toContain('pay_abcdefgh12');
    // Another tenant's retention window is its own (30 days).
    expect(await db().evidence.count({ where: { tenant: { tenantId: other.tenant.id }, arguments: null, kind: 'pre' } })).toBe(0);
  });

  it('shows kept payloads on the trace, redacted as stored, and purged ones as purged', async () => {
    const trace = async (evidenceId: string) => {
      const row = await db().evidence.findUniqueOrThrow({ where: { id: evidenceId } });
      const res = await call(getTrace, { key: t.adminKey, params: { traceId: row.traceId } });
      expect(res.status).toBe(200);
      return res.body.records as { id: string; kind: string; retained: unknown }[];
    };
    const recentRecord = (await trace(recent.evidenceId)).find((r) => r.id === recent.evidenceId);
    expect(recentRecord?.retained).toEqual({
      status: 'kept',
      too_large: false,
      arguments: { tenant_id: 'acme', order_id: 'ord_abc123' },
      context: { tenant_id: 'acme', user_id: 'u_1' },
    });
    const approval = await db().approval.findUniqueOrThrow({ where: { id: old.approvedId } });
    const purged = await call(getTrace, { key: t.adminKey, params: { traceId: approval.traceId } });
    expect(purged.body.records.map((r: { kind: string; retained: unknown }) => [r.kind, r.retained])).toEqual([
      ['pre', { status: 'purged' }],
      ['approval_decision', { status: 'purged' }],
    ]);
    const legacy = await db().evidence.findUniqueOrThrow({ where: { id: legacyId } });
    expect((await trace(legacy.id)).find((r) => r.id === legacyId)?.retained).toEqual({
      status: 'kept',
      too_large: false,
      arguments: { a: 1 },
    });
  });

  it('writes one retention_purge record per tenant and run, and the chain still verifies', async () => {
    const records = await purgeRecords();
    expect(records).toHaveLength(1);
    expect(records[0]).toMatchObject({ tool: 'toolgate.retention', decision: 'retention_purge', apiKeyId: null, actorUserId: null });
    expect(JSON.parse(records[0]!.details ?? '{}')).toMatchObject({
      cutoff: mid.toISOString(),
      retention_days: 1,
      evidence_purged: 6,
      approvals_purged: 1,
      legacy_kept: 1,
    });
    expect(await verifyChain()).toMatchObject({ valid: true, firstBroken: null });

    // Nothing left to purge: no record.
    expect(await purgeRetainedPayloads({ now: new Date(mid.getTime() + DAY) })).toEqual([]);
    expect(await purgeRecords()).toHaveLength(1);
  });

  it('reports a retained payload edited afterwards as payload_mismatch', async () => {
    const row = await db().evidence.findUniqueOrThrow({ where: { id: recent.evidenceId } });
    await db().evidence.update({ where: { id: row.id }, data: { payload: (row.payload ?? '').replace('u_1', 'u_2') } });
    expect(await verifyWholeChain()).toMatchObject({ valid: false, firstBroken: { seq: row.seq, id: row.id, reason: 'payload_mismatch' } });
    await db().evidence.update({ where: { id: row.id }, data: { payload: row.payload } });
    await db().evidence.update({ where: { id: row.id }, data: { arguments: (row.arguments ?? '').replace('ord_abc123', 'ord_xyz789') } });
    expect(await verifyWholeChain()).toMatchObject({ valid: false, firstBroken: { seq: row.seq, reason: 'payload_mismatch' } });
    await db().evidence.update({ where: { id: row.id }, data: { arguments: row.arguments } });
    expect(await verifyWholeChain()).toMatchObject({ valid: true });
  });

  it('leaves the work to the instance holding the lease', async () => {
    const lease = await db().setting.findUniqueOrThrow({ where: { key: 'retention_purge_lease' }, select: { value: true } });
    await db().setting.update({ where: { key: 'retention_purge_lease' }, data: { value: leaseValue(Date.now() + 60_000) } });
    await updateTenantSettings({ tenantId: t.tenant.id, patch: { argument_retention_days: null }, actor: { kind: 'system' } });
    expect(await purgeRetainedPayloads()).toEqual([]);
    expect((await db().evidence.findUniqueOrThrow({ where: { id: recent.evidenceId } })).arguments).not.toBeNull();
    await db().setting.update({ where: { key: 'retention_purge_lease' }, data: { value: lease.value } });
  });

  it('purges everything kept so far at the next run once retention is turned off', async () => {
    const retained = await db().evidence.count({
      where: {
        tenant: { tenantId: t.tenant.id },
        payloadHash: { not: null },
        OR: [{ arguments: { not: null } }, { payload: { not: null } }],
      },
    });
    expect(retained).toBeGreaterThan(0);
    const reports = await purgeRetainedPayloads();
    expect(reports.find((r) => r.tenantId === t.tenant.id)).toMatchObject({ evidencePurged: retained, approvalsPurged: 0, legacyKept: 0 });
    expect(
      await db().evidence.count({
        where: {
          tenant: { tenantId: t.tenant.id },
          payloadHash: { not: null },
          OR: [{ arguments: { not: null } }, { payload: { not: null } }],
        },
      }),
    ).toBe(0);
    const records = await purgeRecords();
    expect(records).toHaveLength(2);
    expect(JSON.parse(records[1]!.details ?? '{}')).toMatchObject({ retention_days: null, evidence_purged: retained });
    // An approval decided within the last hour keeps its payloads for the agent; pending ones always do.
    expect((await db().approval.findUniqueOrThrow({ where: { id: recent.pendingId } })).arguments).not.toBeNull();
    expect(await verifyChain()).toMatchObject({ valid: true });
    // The other tenant (retention on, 30 days) lost nothing.
    expect(await db().evidence.count({ where: { tenant: { tenantId: other.tenant.id }, arguments: null, kind: 'pre' } })).toBe(0);
  });
});
