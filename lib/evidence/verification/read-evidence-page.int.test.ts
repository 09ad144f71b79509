import { beforeAll, describe, expect, it } from 'vitest';
import { db } from '@/lib/db';
import { createTestTenant } from '@/lib/testing/fixtures';
import { chainRecords, type LaneHead } from '../chain-records';
import { GENESIS_HASH } from '../evidence-hash';
import type { EvidenceInput } from '../evidence-input';
import { hashedRecordOf, toStoredRecords, WITH_CONTRACT_HASH } from '../stored-record';
import { readEvidencePage } from './read-evidence-page';
import { ensureTenantKey } from '../tenant-key';

const minimal = (tenantId: string): EvidenceInput => ({
  tenantId,
  kind: 'pre',
  requestId: 'r-1',
  traceId: 'a'.repeat(32),
  callId: 'call-1',
  tool: 'orders.lookup',
  argsHash: '1'.repeat(64),
  decision: 'allow',
  valid: true,
  errors: [],
  warnings: [],
  durationMs: 0,
});

// Every optional field set, with values a loose conversion would get wrong: fractions, a
// boolean true, unicode, an empty string.
const everything = (tenantId: string): EvidenceInput => ({
  ...minimal(tenantId),
  kind: 'post',
  requestId: 'r-2',
  callId: 'call-ü-2',
  w3cTraceparent: '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01',
  apiKeyId: 'key-1',
  actorUserId: 'user-1',
  contractVersion: '1.2.3',
  contractHash: 'ab'.repeat(32),
  idempotencyKey: '',
  arguments: '{"q":"😀"}',
  decision: 'deny',
  valid: false,
  errors: [{ code: 'AXAG_PATTERN_MISMATCH', type: 'contract', message: 'no', path: '$.q' }],
  durationMs: 1.625,
  policyId: 'p-1',
  policyVersion: '2',
  policyRule: 'deny-big',
  policy: '{"reason":"big"}',
  shadowDiffers: true,
  executionMs: 12.5,
  payload: '{"result":1}',
  details: '{"x":1}',
  mcpServer: 'files',
  duplicateKey: 'dk',
});

describe('readEvidencePage', () => {
  let tenantId: string;

  beforeAll(async () => {
    tenantId = (await createTestTenant()).tenant.id;
    const tenantKey = await ensureTenantKey(tenantId);
    const heads = new Map<string, LaneHead>([[tenantId, { lane: 0, seq: 0, hash: GENESIS_HASH, tenantKey }]]);
    const { rows } = chainRecords(
      [minimal(tenantId), everything(tenantId), minimal(tenantId)],
      heads,
      new Date('2026-11-28T00:30:00.123Z'),
    );
    // A record in another lane, as PostgreSQL's writers make them.
    const laned = chainRecords(
      [everything(tenantId)],
      new Map([[tenantId, { lane: 3, seq: 0, hash: GENESIS_HASH, nextSeq: 4, tenantKey }]]),
      new Date(),
    );
    await db().evidence.createMany({ data: await toStoredRecords([...rows, ...laned.rows]) });
  });

  it('reads every column but the tenant’s key (not hashed) as Prisma’s query API does, its hashes in hex and the tenant’s id as it was asked', async () => {
    const viaPrisma = (
      await db().evidence.findMany({
        where: { tenant: { tenantId } },
        orderBy: { seq: 'asc' },
        omit: { tenantKey: true },
        include: WITH_CONTRACT_HASH,
      })
    ).map((row) => hashedRecordOf(row, tenantId));
    const page = await readEvidencePage(tenantId, 0, null, 10);
    expect(page).toHaveLength(4);
    expect(page).toEqual(viaPrisma);
    expect(page[0]?.contractHash).toBeNull();
    expect(page[1]?.contractHash).toBe('ab'.repeat(32));
    expect(page[1]?.valid).toBe(false);
    expect(page[1]?.shadowDiffers).toBe(true);
    expect(page[3]?.lane).toBe(3);
  });

  it('reads after a seq, through a seq, at most a page', async () => {
    expect((await readEvidencePage(tenantId, 1, 3, 10)).map((r) => r.seq)).toEqual([2, 3]);
    expect((await readEvidencePage(tenantId, 0, null, 2)).map((r) => r.seq)).toEqual([1, 2]);
    expect(await readEvidencePage(tenantId, 4, null, 10)).toEqual([]);
  });

  it('reads one tenant only', async () => {
    const other = (await createTestTenant()).tenant.id;
    expect(await readEvidencePage(other, 0, null, 10)).toEqual([]);
  });
});
