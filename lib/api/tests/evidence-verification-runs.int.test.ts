import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { db } from '@/lib/db';
import { addMember } from '@/lib/tenants/add-member';
import { call } from '@/lib/testing/api-client';
import { createTestTenant } from '@/lib/testing/fixtures';
import {
  appendRecords,
  deleteRecord,
  editRecord,
  insertRecordAfter,
  recordAt,
  rewriteFrom,
  swapRecords,
  truncate,
} from '@/lib/testing/evidence-tampering';
import { startVerificationRun } from '@/lib/evidence/verification/verification-runs';
import { MAX_RUN_ATTEMPTS, runDueVerificationRuns, settleVerificationRuns } from '@/lib/evidence/verification/run-verification-runs';
import {
  getVerificationRunHandler as getRun,
  listVerificationRunsHandler as listRuns,
  startVerificationRunHandler as startRun,
  verifyEvidenceHandler as verify,
} from '@/lib/api/handlers/evidence';
import { asSession, ORIGIN, signIn } from './member-sessions';

// Full re-verification runs: POST /api/v1/evidence/verify/runs, GET …/runs/{id} (docs/evidence.md#verification-runs).

async function tenantWithChain(records: number) {
  const t = await createTestTenant();
  await appendRecords(t.tenant.id, records);
  return t;
}
const post = (key: string) => call(startRun, { key, method: 'POST', path: '/api/v1/evidence/verify/runs' });
const get = (key: string, id: string) => call(getRun, { key, path: `/api/v1/evidence/verify/runs/${id}`, params: { id } });
const row = (id: string) => db().evidenceVerificationRun.findUniqueOrThrow({ where: { id } });
/** A run started without this process working on it: the tests drive the runner. */
const queued = async (tenantId: string) => (await startVerificationRun({ tenantId, requestedBy: 'system', runNow: false })).run;

// Runs the POSTs started in this process must not outlive their test.
afterEach(() => settleVerificationRuns());

/**
 * The last 3 records cut off and the chain made to end cleanly before them: the head moved back
 * and (PostgreSQL) the seqs handed out too, so that only a checkpoint past the end tells.
 */
async function cutOff(tenantId: string): Promise<void> {
  await truncate(tenantId, 3);
  await db().evidenceSequence.updateMany({ where: { tenantId }, data: { seq: 17 } });
}

describe('a verification run', () => {
  it('starts with 202, works in the background, and records its result and a checkpoint', async () => {
    const t = await tenantWithChain(30);
    const started = await post(t.adminKey);
    expect(started.status).toBe(202);
    expect(started.headers.get('location')).toBe(`/api/v1/evidence/verify/runs/${started.body.id}`);
    expect(started.body).toMatchObject({ state: 'queued', total: 30, throughSeq: 30, checked: 0, firstBroken: null, error: null });
    expect(started.body.requestedBy).toMatch(/^api_key:/);
    await settleVerificationRuns();

    const done = await get(t.adminKey, started.body.id);
    expect(done.status).toBe(200);
    expect(done.body).toMatchObject({ state: 'passed', total: 30, checked: 30, firstBroken: null, error: null, attempts: 1 });
    expect(done.body.finishedAt).not.toBeNull();
    const stored = await row(started.body.id);
    expect(stored).toMatchObject({ state: 'passed', activeTenantId: null, leaseOwner: null, checked: 30, cursorSeq: 30 });
    const checkpoint = await db().evidenceCheckpoint.findUniqueOrThrow({ where: { id: done.body.checkpointId } });
    expect(checkpoint).toMatchObject({ tenantId: t.tenant.id, seq: 30, hash: (await recordAt(t.tenant.id, 30)).hash, source: 'run' });

    // The next verify relies on the run's checkpoint.
    await appendRecords(t.tenant.id, 2);
    expect((await call(verify, { key: t.adminKey })).body).toMatchObject({
      valid: true,
      records: 32,
      covered: { mode: 'incremental', fromSeq: 31, toSeq: 32, checkpoint: { id: checkpoint.id, source: 'run' } },
    });
    const listed = await call(listRuns, { key: t.adminKey, path: '/api/v1/evidence/verify/runs' });
    expect(listed.body.runs.map((r: { id: string }) => r.id)).toEqual([started.body.id]);
  });

  it('shows its progress while it runs', async () => {
    const t = await tenantWithChain(30);
    const run = await queued(t.tenant.id);
    expect(await runDueVerificationRuns({ pageSize: 5, maxRecords: 10 })).toBe(1);
    expect((await get(t.adminKey, run.id)).body).toMatchObject({ state: 'running', checked: 10, total: 30, firstBroken: null });
    await runDueVerificationRuns({ pageSize: 5, maxRecords: 10 });
    expect((await get(t.adminKey, run.id)).body).toMatchObject({ state: 'running', checked: 20, total: 30 });
    await runDueVerificationRuns({ pageSize: 5, maxRecords: 10 });
    // Slices of one run are one attempt.
    expect((await get(t.adminKey, run.id)).body).toMatchObject({ state: 'passed', checked: 30, attempts: 1 });
  });

  it('verifies only up to the head it started at', async () => {
    const t = await tenantWithChain(10);
    const run = await queued(t.tenant.id);
    await appendRecords(t.tenant.id, 5);
    // A checkpoint recorded since the run started, past its target, names records that are there.
    expect((await call(verify, { key: t.adminKey })).body).toMatchObject({ valid: true, recordedCheckpoint: { seq: 15 } });
    await runDueVerificationRuns();
    expect((await get(t.adminKey, run.id)).body).toMatchObject({ state: 'passed', total: 10, checked: 10 });
  });

  it('finds a change before the checkpoint that the incremental verify relies on', async () => {
    const t = await tenantWithChain(20);
    await call(verify, { key: t.adminKey });
    await editRecord(t.tenant.id, 7);
    expect((await call(verify, { key: t.adminKey })).body).toMatchObject({ valid: true, covered: { checkpoint: { seq: 20 } } });
    const started = await post(t.adminKey);
    await settleVerificationRuns();
    const done = await get(t.adminKey, started.body.id);
    expect(done.body).toMatchObject({
      state: 'failed',
      checked: 6,
      firstBroken: { seq: 7, id: (await recordAt(t.tenant.id, 7)).id, reason: 'hash_mismatch' },
      error: null,
      checkpointId: null,
    });
    expect(await row(started.body.id)).toMatchObject({
      state: 'failed',
      firstBrokenSeq: 7,
      firstBrokenReason: 'hash_mismatch',
      activeTenantId: null,
    });
  });

  it.each([
    ['a rewritten chain, hashes recomputed', (id: string) => rewriteFrom(id, 7), { seq: 20, reason: 'checkpoint_mismatch' }],
    ['a record deleted', (id: string) => deleteRecord(id, 12), { seq: 13, reason: 'seq_gap' }],
    ['a record inserted', (id: string) => insertRecordAfter(id, 12), { seq: 14, reason: 'prev_hash_mismatch' }],
    ['two records swapped', (id: string) => swapRecords(id, 3, 4), { seq: 3, reason: 'prev_hash_mismatch' }],
    ['the newest records cut off, the head moved back', cutOff, { seq: 20, reason: 'checkpoint_mismatch' }],
  ] as const)('finds %s', async (_name, change, expected) => {
    const t = await tenantWithChain(20);
    await call(verify, { key: t.adminKey });
    await change(t.tenant.id);
    const run = await queued(t.tenant.id);
    await runDueVerificationRuns({ pageSize: 4 });
    expect((await get(t.adminKey, run.id)).body).toMatchObject({ state: 'failed', firstBroken: expected });
  });
});

describe('an interrupted run', () => {
  /** What a killed instance leaves: the run running, its lease held by nobody alive and over. */
  const kill = (id: string, attempts?: number) =>
    db().evidenceVerificationRun.update({
      where: { id },
      data: { state: 'running', leaseOwner: 'killed-instance', leaseUntil: new Date(Date.now() - 1000), ...(attempts ? { attempts } : {}) },
    });

  it('is resumed from where it stopped once its lease has run out', async () => {
    const t = await tenantWithChain(30);
    const run = await queued(t.tenant.id);
    await runDueVerificationRuns({ pageSize: 5, maxRecords: 10 });
    await kill(run.id);
    expect(await runDueVerificationRuns({ pageSize: 5 })).toBe(1);
    expect((await get(t.adminKey, run.id)).body).toMatchObject({ state: 'passed', checked: 30, attempts: 2 });
  });

  it('is not taken while its lease holds', async () => {
    const t = await tenantWithChain(5);
    const run = await queued(t.tenant.id);
    await db().evidenceVerificationRun.update({
      where: { id: run.id },
      data: { state: 'running', leaseOwner: 'live-instance', leaseUntil: new Date(Date.now() + 60_000) },
    });
    expect(await runDueVerificationRuns()).toBe(0);
    expect(await row(run.id)).toMatchObject({ state: 'running', checked: 0, leaseOwner: 'live-instance' });
    await db().evidenceVerificationRun.update({ where: { id: run.id }, data: { leaseUntil: new Date(Date.now() - 1) } });
    await runDueVerificationRuns();
  });

  it(`fails as interrupted after ${MAX_RUN_ATTEMPTS} attempts, and a new run may start`, async () => {
    const t = await tenantWithChain(5);
    const run = await queued(t.tenant.id);
    await kill(run.id, MAX_RUN_ATTEMPTS);
    expect(await runDueVerificationRuns()).toBe(0);
    expect((await get(t.adminKey, run.id)).body).toMatchObject({ state: 'failed', error: 'interrupted', firstBroken: null });
    expect(await row(run.id)).toMatchObject({ activeTenantId: null });
    const next = await post(t.adminKey);
    expect(next.status).toBe(202);
    expect(next.body.id).not.toBe(run.id);
  });

  it('starts again from the first record when its resume point does not carry a valid MAC', async () => {
    const t = await tenantWithChain(30);
    await editRecord(t.tenant.id, 4);
    const run = await queued(t.tenant.id);
    // Someone with the database moves the cursor past the changed record.
    const skipTo = await recordAt(t.tenant.id, 29);
    await db().evidenceVerificationRun.update({ where: { id: run.id }, data: { cursorSeq: 29, cursorHash: skipTo.hash, checked: 29 } });
    await runDueVerificationRuns();
    expect((await get(t.adminKey, run.id)).body).toMatchObject({
      state: 'failed',
      checked: 3,
      firstBroken: { seq: 4, reason: 'hash_mismatch' },
    });
  });
  it('starts again up to the chain as it is when its target does not carry a valid MAC', async () => {
    const t = await tenantWithChain(30);
    const run = await queued(t.tenant.id);
    await runDueVerificationRuns({ pageSize: 5, maxRecords: 10 });
    // Someone with the database moves the target back, so that the run would end early.
    await db().evidenceVerificationRun.update({ where: { id: run.id }, data: { throughSeq: 8 } });
    await appendRecords(t.tenant.id, 2);
    await runDueVerificationRuns();
    expect((await get(t.adminKey, run.id)).body).toMatchObject({
      state: 'passed',
      total: 32,
      throughSeq: 32,
      checked: 32,
      firstBroken: null,
    });
    expect(await row(run.id)).toMatchObject({ throughSeq: 32, throughHash: (await recordAt(t.tenant.id, 32)).hash, cursorSeq: 32 });
  });
});

describe('one run per tenant at a time', () => {
  it('settles starts at the same moment on one run', async () => {
    const t = await tenantWithChain(5);
    const starts = await Promise.all(
      Array.from({ length: 4 }, () => startVerificationRun({ tenantId: t.tenant.id, requestedBy: 'system', runNow: false })),
    );
    expect(starts.filter((s) => s.started)).toHaveLength(1);
    expect(new Set(starts.map((s) => s.run.id)).size).toBe(1);
    expect(await db().evidenceVerificationRun.count({ where: { tenantId: t.tenant.id } })).toBe(1);
  });

  it('answers a second start with 200 and the run already queued or running', async () => {
    const t = await tenantWithChain(5);
    const other = await tenantWithChain(5);
    const run = await queued(t.tenant.id);
    const again = await Promise.all([post(t.adminKey), post(t.adminKey)]);
    expect(again.map((r) => r.status)).toEqual([200, 200]);
    expect(again.map((r) => r.body.id)).toEqual([run.id, run.id]);
    expect(again[0]!.headers.get('location')).toBe(`/api/v1/evidence/verify/runs/${run.id}`);
    // Another tenant's run is its own.
    expect((await post(other.adminKey)).status).toBe(202);
    await settleVerificationRuns();
    expect((await get(t.adminKey, run.id)).body.state).toBe('passed');
  });
});

describe('the runs endpoints', () => {
  let t: Awaited<ReturnType<typeof tenantWithChain>>;
  let other: Awaited<ReturnType<typeof tenantWithChain>>;
  let adminCookie = '';
  let viewerCookie = '';

  beforeAll(async () => {
    t = await tenantWithChain(3);
    other = await tenantWithChain(3);
    await addMember({ tenantId: t.tenant.id, email: `admin-${t.tenant.slug}@runs.test`, password: 'admin-password', role: 'admin' });
    await addMember({ tenantId: t.tenant.id, email: `viewer-${t.tenant.slug}@runs.test`, password: 'viewer-password', role: 'viewer' });
    adminCookie = (await signIn(`admin-${t.tenant.slug}@runs.test`, 'admin-password')).cookie;
    viewerCookie = (await signIn(`viewer-${t.tenant.slug}@runs.test`, 'viewer-password')).cookie;
  });

  it('answer 401 without a key or session, 403 to a key without the admin scope and to a viewer', async () => {
    const run = await queued(t.tenant.id);
    const path = `/api/v1/evidence/verify/runs/${run.id}`;
    for (const res of [
      await call(startRun, { method: 'POST', path: '/api/v1/evidence/verify/runs' }),
      await call(listRuns, { path: '/api/v1/evidence/verify/runs' }),
      await call(getRun, { path, params: { id: run.id } }),
    ]) {
      expect(res.status).toBe(401);
      expect(res.body.error.code).toBe('unauthorized');
    }
    for (const res of [
      await post(t.agentKey),
      await get(t.agentKey, run.id),
      await call(startRun, { method: 'POST', path: '/api/v1/evidence/verify/runs', headers: asSession(viewerCookie) }),
      await call(getRun, { path, params: { id: run.id }, headers: asSession(viewerCookie) }),
    ]) {
      expect(res.status).toBe(403);
      expect(res.body.error.code).toBe('forbidden');
    }
    await runDueVerificationRuns();
  });

  it("answer 404 for another tenant's run, an unknown id and a malformed one", async () => {
    const theirs = await queued(other.tenant.id);
    for (const id of [theirs.id, 'no-such-run', 'not a run id!']) {
      const res = await get(t.adminKey, id);
      expect(res.status).toBe(404);
      expect(res.body.error).toMatchObject({ code: 'not_found', details: { resource: 'verification run', id } });
    }
    const mine = await call(listRuns, { key: t.adminKey, path: '/api/v1/evidence/verify/runs' });
    expect(mine.body.runs.map((r: { id: string }) => r.id)).not.toContain(theirs.id);
    await runDueVerificationRuns();
  });

  it('start for an admin signed in from the same origin, and never for a cross-site request', async () => {
    const before = await db().evidenceVerificationRun.count({ where: { tenantId: t.tenant.id } });
    for (const origin of ['http://evil.example', 'null']) {
      const refused = await call(startRun, {
        method: 'POST',
        path: '/api/v1/evidence/verify/runs',
        headers: { cookie: adminCookie, origin },
      });
      expect(refused.status).toBe(403);
      expect(refused.body.error.code).toBe('cross_site_request');
    }
    expect(await db().evidenceVerificationRun.count({ where: { tenantId: t.tenant.id } })).toBe(before);
    const own = await call(startRun, {
      method: 'POST',
      path: '/api/v1/evidence/verify/runs',
      headers: { cookie: adminCookie, origin: ORIGIN },
    });
    expect(own.status).toBe(202);
    expect(own.body.requestedBy).toMatch(/^user:/);
    await settleVerificationRuns();
    const read = await call(getRun, {
      path: `/api/v1/evidence/verify/runs/${own.body.id}`,
      params: { id: own.body.id },
      headers: asSession(adminCookie),
    });
    expect(read.body).toMatchObject({ state: 'passed', checked: 3 });
  });
});
