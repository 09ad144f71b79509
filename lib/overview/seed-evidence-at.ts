import { db, dbProvider } from '../db';
import { writeRollups } from '../rollups/write-rollups';
import { chainRecords, type LaneHead } from '../evidence/chain-records';
import { GENESIS_HASH } from '../evidence/evidence-hash';
import type { EvidenceInput, EvidenceIssue } from '../evidence/evidence-input';
import type { EvidenceKind } from '../evidence/evidence-kinds';
import { toStoredRecords } from '../evidence/stored-record';
import { ensureTenantKey } from '../evidence/tenant-key';

/** One record to seed: when, what kind, how it was decided, and the codes of its errors. */
export interface SeededRecord {
  at: Date;
  kind?: EvidenceKind;
  decision?: string;
  codes?: string[];
  /** Each error's message (default: its code). */
  message?: string;
  tool?: string;
  apiKeyId?: string;
  shadowDiffers?: boolean;
}

/**
 * Appends records at chosen times to a tenant's chain, hashed and linked exactly as the evidence
 * writer does (chainRecords), with their violations and the chain head: a valid chain whose
 * records lie in the past, which the writer, stamping the current time, cannot make. For tests
 * only, on a tenant nothing else writes to at the same time; the app never writes evidence so.
 */
export async function seedEvidenceAt(tenantId: string, records: SeededRecord[]): Promise<{ id: string; seq: number }[]> {
  const stored = await db().evidenceChainHead.findUnique({ where: { tenantId_lane: { tenantId, lane: 0 } } });
  // Lane 0, numbered after every record the tenant has (other lanes', on PostgreSQL, too).
  const tenantKey = await ensureTenantKey(tenantId);
  const newest = await db().evidence.findFirst({ where: { tenantKey }, orderBy: { seq: 'desc' }, select: { seq: true } });
  const start = Math.max(stored?.seq ?? 0, newest?.seq ?? 0);
  const head: LaneHead = { lane: 0, seq: stored?.seq ?? 0, hash: stored?.hash ?? GENESIS_HASH, nextSeq: start + 1, tenantKey };
  const heads = new Map([[tenantId, head]]);
  const seeded: { id: string; seq: number }[] = [];
  // Calls of a second batch get their own ids: one trace per call, as the gate makes them.
  for (const [i, record] of records.entries()) {
    const decision = record.decision ?? 'allow';
    const errors: EvidenceIssue[] = (record.codes ?? []).map((code) => ({
      code,
      type: 'contract',
      message: record.message ?? code,
      path: '$',
    }));
    const input: EvidenceInput = {
      tenantId,
      kind: record.kind ?? 'pre',
      requestId: `seed-${i}`,
      traceId: `seed-trace-${start + i}`,
      callId: `seed-call-${start + i}`,
      tool: record.tool ?? 'seed.tool',
      apiKeyId: record.apiKeyId,
      argsHash: '0'.repeat(64),
      decision,
      valid: errors.length === 0 && decision === 'allow',
      errors,
      warnings: [],
      durationMs: 1,
      shadowDiffers: record.shadowDiffers ?? false,
    };
    head.createdAt = record.at;
    const { rows, violations } = chainRecords([input], heads, record.at);
    await db().evidence.createMany({ data: await toStoredRecords(rows) });
    if (violations.length > 0) await db().violation.createMany({ data: violations });
    await writeRollups(
      (q, params) => db().$executeRawUnsafe(q, ...params),
      dbProvider() === 'postgresql' ? 'postgresql' : 'sqlite',
      rows,
      violations,
    );
    seeded.push(...rows.map((row) => ({ id: row.id, seq: row.seq })));
  }
  const moved = { seq: head.seq, hash: head.hash };
  await db().evidenceChainHead.upsert({
    where: { tenantId_lane: { tenantId, lane: 0 } },
    create: { tenantId, lane: 0, ...moved },
    update: moved,
  });
  // The seqs taken here are not handed out again (PostgreSQL's writers take theirs from it).
  await db().evidenceSequence.upsert({
    where: { tenantId },
    create: { tenantId, seq: head.seq, createdAt: new Date() },
    update: { seq: head.seq },
  });
  return seeded;
}
