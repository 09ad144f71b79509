// Appends chained evidence records to a scratch database for the benches that need many: hashed
// and linked exactly as the writer does (chainRecords), inserted through bench/dashboard's bulk
// writer (plain multi-row SQL), since Prisma's createMany loads SQLite at about 1,500 rows/s.
import type { DatabaseTarget } from '../lib/db/database-url';
import { db } from '../lib/db';
import { chainRecords, type LaneHead } from '../lib/evidence/chain-records';
import { GENESIS_HASH } from '../lib/evidence/evidence-hash';
import { ensureTenantKey } from '../lib/evidence/tenant-key';
import { contractHashKeys } from '../lib/evidence/stored-record';
import { storedRequestId } from '../lib/evidence/stored-request-id';
import type { EvidenceInput } from '../lib/evidence/evidence-input';
import { bulkWriter } from './dashboard/bulk-writer';
import type { Row } from './dashboard/seed';

const BATCH = 1_000;

/** Appends `n` records, `input(i)` the i-th of the tenant's chain, and moves the lane-0 head. */
export async function appendChainedEvidence(
  target: DatabaseTarget,
  tenantId: string,
  n: number,
  input: (i: number) => EvidenceInput,
): Promise<void> {
  const stored = await db().evidenceChainHead.findUnique({ where: { tenantId_lane: { tenantId, lane: 0 } } });
  const tenantKey = await ensureTenantKey(tenantId);
  const heads = new Map([[tenantId, { lane: 0, seq: stored?.seq ?? 0, hash: stored?.hash ?? GENESIS_HASH, tenantKey }]]);
  const start = stored?.seq ?? 0;
  const writer = bulkWriter(target);
  try {
    for (let done = 0; done < n; done += BATCH) {
      const inputs = Array.from({ length: Math.min(BATCH, n - done) }, (_, k) => input(start + done + k));
      const { rows, violations } = chainRecords(inputs, heads, new Date());
      // Stored as the writers store them: the contract hash by its key, the request id '' when it is the record's id.
      const keys = await contractHashKeys(rows.map((r) => r.contractHash));
      const evidence = rows.map((r) => ({
        ...r,
        requestId: storedRequestId(r),
        contractHashKey: r.contractHash === null ? null : (keys.get(r.contractHash) as number),
      }));
      await writer.write({ evidence: evidence as unknown as Row[], violations: violations as unknown as Row[], approvals: [] });
    }
  } finally {
    await writer.close();
  }
  const head = heads.get(tenantId) as LaneHead;
  const moved = { seq: head.seq, hash: head.hash };
  await db().evidenceChainHead.upsert({
    where: { tenantId_lane: { tenantId, lane: 0 } },
    create: { tenantId, lane: 0, ...moved },
    update: moved,
  });
}
