// The benches that need many records (bench:verify, bench:duplicate-call) seed them through
// appendChainedEvidence. Their figures mean something only if what it stores is what the writers
// store: when the contract hash moved to its own table, the seeded chain broke at its first
// record and bench:verify timed a walk of nothing for two days, unnoticed.
import { afterAll, describe, expect, it } from 'vitest';
import { db, dbProvider } from '../lib/db';
import { parseDatabaseUrl } from '../lib/db/database-url';
import { createTestTenant } from '../lib/testing/fixtures';
import { createRawEvidenceStore } from '../lib/evidence/raw-evidence-store';
import { verifyEvidenceChain } from '../lib/evidence/verify-evidence-chain';
import type { EvidenceInput } from '../lib/evidence/evidence-input';
import { appendChainedEvidence } from './chained-evidence';

const target = parseDatabaseUrl(process.env.DATABASE_URL);
const store = createRawEvidenceStore(target);
afterAll(() => store.close());

const input = (tenantId: string, i: number): EvidenceInput => ({
  tenantId,
  kind: 'pre',
  requestId: `req-${i}`,
  traceId: `trace-${i}`,
  callId: `call-${i}`,
  apiKeyId: null,
  tool: `svc.action_${i % 3}`,
  contractVersion: i % 4 === 0 ? null : '1.0.0',
  contractHash: i % 4 === 0 ? null : 'c'.repeat(64),
  argsHash: i.toString(16).padStart(64, '0'),
  decision: i % 5 === 0 ? 'deny' : 'allow',
  valid: i % 5 !== 0,
  errors: i % 5 === 0 ? [{ code: 'AXAG_PATTERN_MISMATCH', type: 'contract', message: 'no match', path: '$.order_id' }] : [],
  warnings: [],
  durationMs: 0.5,
});

/** A tenant's records as stored, less what differs between two chains of the same inputs. */
async function storedRows(tenantId: string) {
  const rows = await db().evidence.findMany({ where: { tenant: { tenantId } }, orderBy: { seq: 'asc' } });
  const differing = ['id', 'hash', 'prevHash', 'createdAt', 'tenantKey'];
  return rows.map((row) => Object.fromEntries(Object.entries(row).filter(([column]) => !differing.includes(column))));
}

describe(`bench seeding of chained evidence (${dbProvider()})`, () => {
  it('stores records as the evidence writer does, and the seeded chain verifies', async () => {
    const seeded = (await createTestTenant()).tenant.id;
    const written = (await createTestTenant()).tenant.id;
    await appendChainedEvidence(target, seeded, 12, (i) => input(seeded, i));
    await appendChainedEvidence(target, seeded, 8, (i) => input(seeded, i));
    await store.commit(Array.from({ length: 20 }, (_, i) => input(written, i)));

    expect(await verifyEvidenceChain({ tenantId: seeded })).toMatchObject({ valid: true, records: 20, firstBroken: null });
    const rows = await storedRows(seeded);
    expect(rows).toHaveLength(20);
    expect(rows).toEqual(await storedRows(written));
    expect(await db().violation.count({ where: { tenantId: seeded } })).toBe(4);
  });
});
