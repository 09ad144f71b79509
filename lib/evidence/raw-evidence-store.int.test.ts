// The plain-SQL evidence store writes rows exactly as Prisma reads them back, every column
// included (the SQLite store binds values by position).
import { afterAll, describe, expect, it } from 'vitest';
import { db, dbProvider } from '../db';
import { parseDatabaseUrl } from '../db/database-url';
import { createTestTenant } from '../testing/fixtures';
import { createRawEvidenceStore } from './raw-evidence-store';
import { verifyEvidenceChain } from './verify-evidence-chain';
import type { EvidenceInput } from './record-evidence';
import { hashedRecordOf, WITH_CONTRACT_HASH } from './stored-record';

const store = createRawEvidenceStore(parseDatabaseUrl(process.env.DATABASE_URL));
afterAll(() => store.close());

describe(`raw evidence store (${dbProvider()})`, () => {
  it('stores every field of every record, and the chain verifies', async () => {
    const t = await createTestTenant();
    const full: EvidenceInput = {
      tenantId: t.tenant.id,
      kind: 'pre',
      requestId: 'req-full',
      traceId: 'a'.repeat(32),
      callId: 'call-full',
      w3cTraceparent: `00-${'b'.repeat(32)}-${'c'.repeat(16)}-01`,
      apiKeyId: t.agentKeyId,
      actorUserId: null,
      tool: 'refunds.create',
      contractVersion: '2.1.0',
      contractHash: 'd'.repeat(64),
      argsHash: 'e'.repeat(64),
      idempotencyKey: 'idem-1',
      arguments: '{"amount":12}',
      decision: 'deny',
      valid: false,
      errors: [{ code: 'AXAG_OUT_OF_RANGE', type: 'constraint_error', message: 'amount must be <= 10', path: '$.amount' }],
      warnings: [],
      durationMs: 1.23456,
      policyId: 'refund-limits',
      policyVersion: '3',
      policyRule: 'cap',
      policy: '{"reason":"cap"}',
      shadowDiffers: true,
      executionMs: 45.6789,
    };
    const minimal: EvidenceInput = {
      tenantId: t.tenant.id,
      kind: 'post',
      requestId: 'req-min',
      traceId: 'f'.repeat(32),
      callId: 'call-min',
      tool: 'orders.lookup',
      argsHash: '0'.repeat(64),
      decision: 'allow',
      valid: true,
      errors: [],
      warnings: [],
      durationMs: 0.5,
    };
    const recorded = await store.commit([full, minimal]);
    expect(recorded.map((r) => r?.seq)).toEqual([1, 2]);

    const rows = (
      await db().evidence.findMany({ where: { tenant: { tenantId: t.tenant.id } }, orderBy: { seq: 'asc' }, include: WITH_CONTRACT_HASH })
    ).map((row) => hashedRecordOf(row, t.tenant.id));
    expect(rows).toHaveLength(2);
    const [a, b] = rows;
    expect(a).toMatchObject({
      id: recorded[0]?.id,
      hash: recorded[0]?.hash,
      seq: 1,
      kind: 'pre',
      requestId: 'req-full',
      traceId: full.traceId,
      callId: 'call-full',
      w3cTraceparent: full.w3cTraceparent,
      apiKeyId: t.agentKeyId,
      actorUserId: null,
      tool: 'refunds.create',
      contractVersion: '2.1.0',
      contractHash: full.contractHash,
      argsHash: full.argsHash,
      idempotencyKey: 'idem-1',
      arguments: '{"amount":12}',
      decision: 'deny',
      valid: false,
      errors: JSON.stringify(full.errors),
      warnings: '[]',
      durationMs: 1.235,
      policyId: 'refund-limits',
      policyVersion: '3',
      policyRule: 'cap',
      policy: '{"reason":"cap"}',
      shadowDiffers: true,
      executionMs: 45.679,
    });
    expect(b).toMatchObject({
      id: recorded[1]?.id,
      seq: 2,
      // The previous record's hash, stored as its prefix (STORED_PREV_HASH_CHARS).
      prevHash: recorded[0]?.hash.slice(0, 16),
      kind: 'post',
      w3cTraceparent: null,
      apiKeyId: null,
      contractVersion: null,
      contractHash: null,
      idempotencyKey: null,
      arguments: null,
      valid: true,
      durationMs: 0.5,
      policyId: null,
      policyVersion: null,
      policyRule: null,
      policy: null,
      shadowDiffers: false,
      executionMs: null,
    });
    // Both rows carry the batch's one timestamp, read back as the same instant.
    expect(a?.createdAt).toBeInstanceOf(Date);
    expect(a?.createdAt.getTime()).toBe(b?.createdAt.getTime());

    expect(
      await db().violation.findMany({ where: { tenantId: t.tenant.id }, select: { evidenceId: true, code: true, path: true } }),
    ).toEqual([{ evidenceId: recorded[0]?.id, code: 'AXAG_OUT_OF_RANGE', path: '$.amount' }]);
    expect(await verifyEvidenceChain({ tenantId: t.tenant.id })).toMatchObject({ valid: true, records: 2, firstBroken: null });
  });

  it('commits a batch of 1,100 records, refusals and all, and the chain verifies', async () => {
    const t = await createTestTenant();
    // More rows than a statement with a parameter per value could bind (PostgreSQL's JSON parameters have no such bound).
    const inputs: EvidenceInput[] = Array.from({ length: 1100 }, (_, i) => ({
      tenantId: t.tenant.id,
      kind: 'pre',
      requestId: `req-${i}`,
      traceId: `${i}`.padStart(32, '0'),
      callId: `call-${i}`,
      tool: 'orders.lookup',
      argsHash: '1'.repeat(64),
      decision: i % 10 === 0 ? 'deny' : 'allow',
      valid: i % 10 !== 0,
      errors:
        i % 10 === 0 ? [{ code: 'AXAG_MISSING_PARAM', type: 'parameter_error', message: 'order_id is required', path: '$.order_id' }] : [],
      warnings: [],
      durationMs: 0.25,
    }));
    const recorded = await store.commit(inputs);
    expect(recorded.map((r) => r?.seq)).toEqual(inputs.map((_, i) => i + 1));
    expect(await db().evidence.count({ where: { tenant: { tenantId: t.tenant.id } } })).toBe(1100);
    expect(await db().violation.count({ where: { tenantId: t.tenant.id } })).toBe(110);
    expect(await verifyEvidenceChain({ tenantId: t.tenant.id })).toMatchObject({ valid: true, records: 1100 });
    // The next batch continues the chain from the head the large one left.
    expect((await store.commit([inputs[1] as EvidenceInput]))[0]?.seq).toBe(1101);
  });

  it('stores what an agent sends as it was hashed: a lone surrogate as U+FFFD, an escaped "\\ud800" as written', async () => {
    const t = await createTestTenant();
    const base = {
      tenantId: t.tenant.id,
      kind: 'pre' as const,
      requestId: 'r',
      traceId: 't',
      argsHash: '2'.repeat(64),
      warnings: [],
      durationMs: 1,
    };
    const odd: EvidenceInput = {
      ...base,
      callId: 'lone \ud800 high, lone \udc00 low, pair \ud83d\ude00',
      tool: 'written \\ud800 \\\\\ud801 "quoted" {a,b} NULL',
      idempotencyKey: '\udfff',
      decision: 'deny',
      valid: false,
      errors: [{ code: 'AXAG_PATTERN_MISMATCH', type: 'contract', message: 'no', path: '$.\ud800' }],
    };
    const [recorded] = await store.commit([odd]);
    const row = await db().evidence.findUniqueOrThrow({ where: { id: recorded?.id as string } });
    expect(row).toMatchObject({
      callId: 'lone \ufffd high, lone \ufffd low, pair \ud83d\ude00',
      tool: 'written \\ud800 \\\\\ufffd "quoted" {a,b} NULL',
      idempotencyKey: '\ufffd',
    });
    expect(await db().violation.findFirstOrThrow({ where: { evidenceId: row.id } })).toMatchObject({ path: '$.\ufffd', tool: row.tool });
    expect(await verifyEvidenceChain({ tenantId: t.tenant.id })).toMatchObject({ valid: true, records: 1 });
    const counted = await db().evidenceRollup.aggregate({ where: { tenantId: t.tenant.id }, _sum: { records: true } });
    expect(counted._sum.records).toBe(1);
  });
});
