import { db, dbProvider } from '../db';
import { writeRollups } from '../rollups/write-rollups';
import { chainRecords } from '../evidence/chain-records';
import type { EvidenceInput, EvidenceIssue } from '../evidence/evidence-input';
import type { EvidenceKind } from '../evidence/evidence-kinds';

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
  const stored = await db().evidenceChainHead.findUnique({ where: { tenantId } });
  const heads = new Map(stored ? [[tenantId, { seq: stored.seq, hash: stored.hash }]] : []);
  const seeded: { id: string; seq: number }[] = [];
  // Calls of a second batch get their own ids: one trace per call, as the gate makes them.
  const start = stored?.seq ?? 0;
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
    const { rows, violations } = chainRecords([input], heads, record.at);
    await db().evidence.createMany({ data: rows });
    if (violations.length > 0) await db().violation.createMany({ data: violations });
    await writeRollups(
      (q, params) => db().$executeRawUnsafe(q, ...params),
      dbProvider() === 'postgresql' ? 'postgresql' : 'sqlite',
      rows,
      violations,
    );
    seeded.push(...rows.map((row) => ({ id: row.id, seq: row.seq })));
  }
  const head = heads.get(tenantId);
  if (head) await db().evidenceChainHead.upsert({ where: { tenantId }, create: { tenantId, ...head }, update: head });
  return seeded;
}
