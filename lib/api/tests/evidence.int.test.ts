import { beforeAll, describe, expect, it } from 'vitest';
import { db, dbProvider } from '@/lib/db';
import { lookupOrderContract, refundPaymentContract } from '@/lib/contracts/examples';
import { call } from '@/lib/testing/api-client';
import { createTestTenant, publishContract } from '@/lib/testing/fixtures';
import { validatePreHandler as validatePre } from '@/lib/api/handlers/validate';
import { verifyEvidenceHandler as verify } from '@/lib/api/handlers/evidence';
import { listViolationsHandler as violations } from '@/lib/api/handlers/violations';

let t: Awaited<ReturnType<typeof createTestTenant>>;
let other: Awaited<ReturnType<typeof createTestTenant>>;
const lookup = (callId: string, orderId = 'ord_abc123', key = t.agentKey) =>
  call(validatePre, {
    key,
    body: { tool: 'orders.lookup', call_id: callId, arguments: { tenant_id: 'acme', order_id: orderId }, context: { tenant_id: 'acme' } },
  });

beforeAll(async () => {
  t = await createTestTenant({ storeRawArguments: true });
  other = await createTestTenant();
  await publishContract(t.tenant.id, lookupOrderContract);
  await publishContract(t.tenant.id, refundPaymentContract);
  await publishContract(other.tenant.id, lookupOrderContract);
});

describe('evidence chain', () => {
  it('links every record to the previous one, also under concurrent writes', async () => {
    await Promise.all(Array.from({ length: 25 }, (_, i) => lookup(`conc-${i}`, i % 2 ? 'ord_abc123' : 'BAD')));
    await Promise.all(Array.from({ length: 5 }, (_, i) => lookup(`conc-other-${i}`, 'ord_abc123', other.agentKey)));
    const res = await call(verify, { key: t.adminKey });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ valid: true, records: 25, firstBroken: null });
    const seqs = (
      await db().evidence.findMany({ where: { tenant: { tenantId: t.tenant.id } }, orderBy: { seq: 'asc' }, select: { seq: true } })
    ).map((r) => r.seq);
    expect(seqs).toEqual(Array.from({ length: 25 }, (_, i) => i + 1));
    // The other tenant's chain is its own.
    const mine = await call(verify, { key: other.adminKey });
    expect(mine.body).toMatchObject({ valid: true, records: 5 });
  });

  it('reports the first broken link when a record is altered', async () => {
    // A refused record turned into an allowed one. Picked by its decision, not by seq: the
    // concurrent writes above may commit in any order.
    const target = await db().evidence.findFirstOrThrow({
      where: { tenant: { tenantId: t.tenant.id }, decision: 'deny', seq: { gt: 1 } },
      orderBy: { seq: 'asc' },
    });
    await db().$executeRawUnsafe(`UPDATE "Evidence" SET "decision" = 'allow', "errors" = '[]' WHERE "id" = '${target.id}'`);
    // The verify above recorded a checkpoint after this record: the incremental verify relies on
    // it (and says so), the full walk reads every record (evidence-verification.int.test.ts).
    const full = { key: t.adminKey, path: '/api/v1/evidence/verify?mode=full' };
    expect((await call(verify, { key: t.adminKey })).body).toMatchObject({ valid: true, covered: { mode: 'incremental' } });
    const res = await call(verify, full);
    expect(res.body.valid).toBe(false);
    expect(res.body.firstBroken).toMatchObject({ seq: target.seq, reason: 'hash_mismatch' });
    await db().$executeRawUnsafe(
      `UPDATE "Evidence" SET "decision" = '${target.decision}', "errors" = '${target.errors.replace(/'/g, "''")}' WHERE "id" = '${target.id}'`,
    );
    expect((await call(verify, full)).body.valid).toBe(true);
  });

  it('reports a deleted record as a gap', async () => {
    const extra = await createTestTenant();
    await publishContract(extra.tenant.id, lookupOrderContract);
    for (let i = 0; i < 4; i++) await lookup(`gap-${i}`, 'ord_abc123', extra.agentKey);
    await db().$executeRawUnsafe(
      `DELETE FROM "Evidence" WHERE "tenantKey" = (SELECT "key" FROM "TenantKey" WHERE "tenantId" = '${extra.tenant.id}') AND "seq" = 2`,
    );
    const res = await call(verify, { key: extra.adminKey });
    expect(res.body.valid).toBe(false);
    expect(res.body.firstBroken).toMatchObject({ seq: 3, reason: 'seq_gap' });
  });
});

describe('what an agent may send', () => {
  it('a lone surrogate or a NUL in the call id, the tool and an argument key: a decision, stored as U+FFFD, and the chain still verifies', async () => {
    const odd = await createTestTenant({ storeRawArguments: true });
    await publishContract(odd.tenant.id, lookupOrderContract);
    // As an agent's JSON carries them ("\ud800" is valid JSON); JSON.stringify would escape them the same way.
    const sent = (callId: string, tool = 'orders.lookup', extra?: string) =>
      call(validatePre, {
        key: odd.agentKey,
        body: {
          tool,
          call_id: callId,
          arguments: { tenant_id: 'acme', order_id: 'ord_abc123', ...(extra ? { [extra]: 1 } : {}) },
          context: { tenant_id: 'acme' },
        },
      });
    const answers = [
      await sent('lone \ud800'),
      await sent('\udc00', 'orders.\ud800'),
      await sent('nul \u0000', 'orders.lookup', 'k\ud800'),
    ];
    expect(answers.map((r) => [r.status, r.body.decision])).toEqual([
      [200, 'allow'],
      [200, 'deny'],
      [200, 'deny'],
    ]);
    const rows = await db().evidence.findMany({
      where: { tenant: { tenantId: odd.tenant.id } },
      orderBy: { seq: 'asc' },
      select: { callId: true, tool: true },
    });
    expect(rows).toEqual([
      { callId: 'lone \ufffd', tool: 'orders.lookup' },
      { callId: '\ufffd', tool: 'orders.\ufffd' },
      { callId: 'nul \ufffd', tool: 'orders.lookup' },
    ]);
    const verified = await call(verify, { key: odd.adminKey, path: '/api/v1/evidence/verify?mode=full' });
    expect(verified.body).toMatchObject({ valid: true, records: 3, firstBroken: null });
  });
});

describe('stored arguments', () => {
  it('keeps raw arguments only for opted-in tenants, with sensitive fields redacted', async () => {
    const res = await call(validatePre, {
      key: t.agentKey,
      body: {
        tool: 'payments.refund',
        call_id: 'redact-1',
        arguments: {
          tenant_id: 'acme',
          payment_id: 'pay_abcdefgh12',
          amount_cents: 100,
          reason: 'duplicate',
          card: { last4: '4242', holder_name: 'Ada Lovelace' },
        },
        context: { tenant_id: 'acme', user_id: 'u', roles: ['finance'], state: { payment_status: 'captured' } },
      },
    });
    const evidence = await db().evidence.findUniqueOrThrow({ where: { id: res.body.evidence_id } });
    const stored = JSON.parse(evidence.arguments ?? 'null');
    expect(stored.card).toEqual({ last4: '[REDACTED]', holder_name: '[REDACTED]' });
    expect(stored.amount_cents).toBe(100);
    expect(evidence.arguments).not.toContain('Ada Lovelace');
  });
});

describe('violations', () => {
  it('are queryable by code and tool, newest first, with a cursor', async () => {
    const all = await call(violations, { key: t.adminKey, path: '/api/v1/violations?code=AXAG_PATTERN_MISMATCH&limit=5' });
    expect(all.status).toBe(200);
    expect(all.body.violations).toHaveLength(5);
    expect(
      all.body.violations.every((v: { code: string; tool: string }) => v.code === 'AXAG_PATTERN_MISMATCH' && v.tool === 'orders.lookup'),
    ).toBe(true);
    expect(all.body.next_cursor).toBeTruthy();
    const next = await call(violations, {
      key: t.adminKey,
      path: `/api/v1/violations?code=AXAG_PATTERN_MISMATCH&limit=100&cursor=${all.body.next_cursor}`,
    });
    const ids = new Set([...all.body.violations, ...next.body.violations].map((v: { id: string }) => v.id));
    expect(ids.size).toBe(13);
    const none = await call(violations, { key: other.adminKey, path: '/api/v1/violations?code=AXAG_PATTERN_MISMATCH' });
    expect(none.body.violations).toHaveLength(0);
    const bad = await call(violations, { key: t.adminKey, path: '/api/v1/violations?since=yesterday' });
    expect(bad.status).toBe(400);
  });
});

describe('evidence write failure', () => {
  it('answers 503 and never allows when the record cannot be committed', async () => {
    const provider = dbProvider();
    if (provider === 'sqlite') {
      await db().$executeRawUnsafe(
        `CREATE TRIGGER block_evidence BEFORE INSERT ON "Evidence" BEGIN SELECT RAISE(ABORT, 'evidence store unavailable'); END`,
      );
    } else {
      await db().$executeRawUnsafe(
        `CREATE FUNCTION block_evidence() RETURNS trigger AS $$ BEGIN RAISE EXCEPTION 'evidence store unavailable'; END $$ LANGUAGE plpgsql`,
      );
      await db().$executeRawUnsafe(
        `CREATE TRIGGER block_evidence BEFORE INSERT ON "Evidence" FOR EACH ROW EXECUTE FUNCTION block_evidence()`,
      );
    }
    try {
      const before = await db().evidence.count();
      const res = await lookup('blocked-1');
      expect(res.status).toBe(503);
      expect(res.body.decision).toBeUndefined();
      expect(await db().evidence.count()).toBe(before);
    } finally {
      await db().$executeRawUnsafe(provider === 'sqlite' ? 'DROP TRIGGER block_evidence' : 'DROP TRIGGER block_evidence ON "Evidence"');
    }
    expect((await lookup('blocked-2')).body.decision).toBe('allow');
    expect((await call(verify, { key: t.adminKey })).body.valid).toBe(true);
  });
});
