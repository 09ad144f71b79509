import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { db } from '@/lib/db';
import { expireOverdueApprovals } from '@/lib/approvals/expire-approval';
import {
  approvalWatchReads,
  endApprovalWaits,
  resetApprovalWaitsForTests,
  waitForApprovalChange,
  waitingOnApproval,
} from '@/lib/approvals/wait-for-approval';
import { createDataPlaneServer } from '@/lib/data-plane/server';
import { approver1, asSession, decisions, poll, requestRefund, retry, setUpApprovalQueue, t } from './approval-queue-setup';

setUpApprovalQueue();

describe('expiry', () => {
  it('ends an undecided approval as expired (outcome denied), once, with evidence; it cannot be decided after', async () => {
    const { id, traceId } = await requestRefund(5001);
    await db().approval.update({ where: { id }, data: { expiresAt: new Date(Date.now() - 1000) } });
    expect(await expireOverdueApprovals({ tenantId: t.tenant.id })).toBe(1);
    expect(await expireOverdueApprovals({ tenantId: t.tenant.id })).toBe(0);
    const state = await poll(id);
    expect(state.body).toMatchObject({ status: 'expired', outcome: 'denied' });
    expect(state.body.approval_token).toBeUndefined();
    const late = await asSession(approver1, id, { decision: 'approve' });
    expect(late.status).toBe(409);
    expect(late.body.error.code).toBe('approval_expired');
    expect(await decisions(traceId)).toEqual(['expired']);
    // Nothing of the undecided call's arguments is kept.
    expect((await db().approval.findUniqueOrThrow({ where: { id } })).arguments).toBeNull();
  });

  it('expires lazily when read before the sweeper ran, and when someone tries to decide it', async () => {
    const read = await requestRefund(5002);
    const decided = await requestRefund(5003);
    await db().approval.updateMany({ where: { id: { in: [read.id, decided.id] } }, data: { expiresAt: new Date(Date.now() - 1000) } });
    expect((await poll(read.id)).body).toMatchObject({ status: 'expired', outcome: 'denied' });
    expect((await asSession(approver1, decided.id, { decision: 'approve' })).body.error.code).toBe('approval_expired');
    expect(await decisions(read.traceId)).toEqual(['expired']);
    expect(await decisions(decided.traceId)).toEqual(['expired']);
  });

  it('survives a restart: pending approvals are read back from the database, decided or swept', async () => {
    const stays = await requestRefund(5004);
    const overdue = await requestRefund(5005);
    // A "restart": this instance's in-memory state is gone; only the database remains.
    const { closeEvidenceWriter } = await import('@/lib/evidence/record-evidence');
    const { disconnectDb } = await import('@/lib/db');
    const { resetApprovalEventsForTests } = await import('@/lib/approvals/approval-events');
    const { resetInstanceSecretForTests } = await import('@/lib/auth/instance-secret');
    const { resetAuthForTests } = await import('@/lib/auth/auth');
    await closeEvidenceWriter();
    await disconnectDb();
    resetApprovalEventsForTests();
    resetInstanceSecretForTests();
    resetAuthForTests();

    await db().approval.update({ where: { id: overdue.id }, data: { expiresAt: new Date(Date.now() - 1000) } });
    expect(await expireOverdueApprovals()).toBeGreaterThanOrEqual(1);
    expect((await poll(overdue.id)).body.outcome).toBe('denied');
    expect((await poll(stays.id)).body.status).toBe('pending');
    expect((await asSession(approver1, stays.id, { decision: 'approve' })).body.status).toBe('approved');
    expect((await retry(stays.callId, stays.args, (await poll(stays.id)).body.approval_token)).body.decision).toBe('allow');
  });
});

describe('long polling', () => {
  /** Resolves once a GET ?wait= is parked on the approval (it listens for in-process wake-ups). */
  async function parked(id: string) {
    while (waitingOnApproval(id) === 0) await new Promise((r) => setTimeout(r, 10));
  }

  it('returns as soon as another request decides, with the token', async () => {
    const { id } = await requestRefund(6001);
    const started = Date.now();
    const waiting = poll(id, 30);
    await parked(id);
    expect((await asSession(approver1, id, { decision: 'approve' })).status).toBe(200);
    const res = await waiting;
    expect(res.body).toMatchObject({ status: 'approved', outcome: 'approved' });
    expect(res.body.approval_token).toMatch(/^tga_/);
    expect(Date.now() - started).toBeLessThan(25_000);
  });

  it('sees a decision committed by another instance (no in-process wake-up) at its next read', async () => {
    const { id } = await requestRefund(6002);
    const waiting = poll(id, 30);
    await parked(id);
    await db().approval.update({ where: { id }, data: { status: 'denied', decidedAt: new Date(), comment: 'from elsewhere' } });
    expect((await waiting).body).toMatchObject({ status: 'denied', outcome: 'denied', comment: 'from elsewhere' });
  });

  it('returns the pending state when the time is up, and refuses waits above 30 s', async () => {
    const { id } = await requestRefund(6003);
    const started = Date.now();
    const res = await poll(id, 1);
    expect(res.status).toBe(200);
    expect(res.body.status).toBe('pending');
    expect(Date.now() - started).toBeGreaterThanOrEqual(950);
    expect((await poll(id, 31)).status).toBe(400);
  });

  it('stops waiting when the client goes away', async () => {
    const { id } = await requestRefund(6004);
    const controller = new AbortController();
    const waiting = waitForApprovalChange({ tenantId: t.tenant.id, id, waitMs: 30_000, signal: controller.signal });
    await parked(id);
    controller.abort();
    await waiting;
    expect(waitingOnApproval(id)).toBe(0);
  });

  it('reads the row once a poll for all the requests waiting on one approval, and ends each at its own time', async () => {
    const { id } = await requestRefund(6006);
    const short = Array.from({ length: 20 }, () => poll(id, 1));
    const long = Array.from({ length: 30 }, () => poll(id, 30));
    while (waitingOnApproval(id) < 50) await new Promise((r) => setTimeout(r, 10));
    // The one-second waits answer pending while the others stay parked on the same watch.
    for (const res of await Promise.all(short)) expect(res.body.status).toBe('pending');
    expect(waitingOnApproval(id)).toBe(30);
    // Fifty waiters reading on their own would have made at least fifty reads by now (one
    // each on entry), about 150 in the second; the watch makes one a poll.
    expect(approvalWatchReads(t.tenant.id, id)).toBeGreaterThan(0);
    expect(approvalWatchReads(t.tenant.id, id)).toBeLessThan(20);
    expect((await asSession(approver1, id, { decision: 'deny', comment: 'no' })).status).toBe(200);
    for (const res of await Promise.all(long)) expect(res.body).toMatchObject({ status: 'denied', outcome: 'denied' });
    expect(waitingOnApproval(id)).toBe(0);
    expect(approvalWatchReads(t.tenant.id, id)).toBe(0);
  });

  it('a request that joins a watch late still sees a decision made elsewhere, and a new watch starts after one ends', async () => {
    const { id } = await requestRefund(6007);
    const first = poll(id, 30);
    await parked(id);
    const second = poll(id, 30);
    while (waitingOnApproval(id) < 2) await new Promise((r) => setTimeout(r, 10));
    await db().approval.update({ where: { id }, data: { status: 'denied', decidedAt: new Date(), comment: 'elsewhere' } });
    expect((await first).body.status).toBe('denied');
    expect((await second).body.status).toBe('denied');
    // Decided: a later wait answers at once, without parking.
    expect((await poll(id, 30)).body.status).toBe('denied');
    expect(waitingOnApproval(id)).toBe(0);
  });

  it('a failed read ends every wait on the watch with the error, and the next wait starts a new watch', async () => {
    const { id } = await requestRefund(6008);
    const waits = [0, 1, 2].map(() => waitForApprovalChange({ tenantId: t.tenant.id, id, waitMs: 30_000 }));
    while (waitingOnApproval(id) < 3) await new Promise((r) => setTimeout(r, 10));
    const delegate = db().approval;
    const original = delegate.findFirst;
    const failing = (() => Promise.reject(new Error('database went away'))) as unknown as typeof original;
    Object.defineProperty(delegate, 'findFirst', { value: failing, configurable: true, writable: true });
    try {
      const settled = await Promise.allSettled(waits);
      expect(settled.map((s) => s.status)).toEqual(['rejected', 'rejected', 'rejected']);
    } finally {
      Object.defineProperty(delegate, 'findFirst', { value: original, configurable: true, writable: true });
    }
    expect(waitingOnApproval(id)).toBe(0);
    const res = await poll(id, 1);
    expect(res.body.status).toBe('pending');
  });

  it('a stopping instance answers its long polls at once with the approval as it stands, and parks no new ones', async () => {
    const { id } = await requestRefund(6009);
    const waits = [poll(id, 30), poll(id, 30)];
    while (waitingOnApproval(id) < 2) await new Promise((r) => setTimeout(r, 10));
    try {
      endApprovalWaits();
      for (const res of await Promise.all(waits)) expect(res.body).toMatchObject({ status: 'pending' });
      expect(waitingOnApproval(id)).toBe(0);
      // A poll that arrives while stopping answers without parking.
      const late = poll(id, 30);
      expect(waitingOnApproval(id)).toBe(0);
      expect((await late).body.status).toBe('pending');
    } finally {
      resetApprovalWaitsForTests();
    }
  });

  it('on the data plane, stops waiting when the agent closes its connection', async () => {
    const { id } = await requestRefund(6005);
    const server = createDataPlaneServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const request = http.get({
        host: '127.0.0.1',
        port,
        path: `/api/v1/approvals/${id}?wait=30`,
        headers: { authorization: `Bearer ${t.agentKey}` },
      });
      request.on('error', () => undefined);
      await parked(id);
      request.destroy();
      // The wait would otherwise hold its listener for the whole 30 s.
      const deadline = Date.now() + 10_000;
      while (waitingOnApproval(id) > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
      expect(waitingOnApproval(id)).toBe(0);
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
