import { db } from '../db';
import { evidenceHash, GENESIS_HASH } from '../evidence/evidence-hash';
import { timeOrderedId } from '../evidence/time-ordered-id';
import { seedEvidenceAt } from '../overview/seed-evidence-at';
import { storedHash } from '../evidence/stored-hashes';
import { hashedRecordOf, toStoredRecords, WITH_CONTRACT_HASH } from '../evidence/stored-record';
import { tenantEvidence } from '../evidence/tenant-key';

/**
 * What someone with write access to the database could do to a tenant's chain, for the
 * verification tests: each helper changes stored rows directly, as no API can.
 */

/** The record at `seq` as Prisma's unique key names it. */
async function at(tenantId: string, seq: number) {
  return { tenantKey_seq: { tenantKey: (await tenantEvidence(tenantId)).tenantKey, seq } };
}

/** Appends `n` valid records to the tenant's chain (and moves its head). */
export async function appendRecords(tenantId: string, n: number): Promise<void> {
  await seedEvidenceAt(
    tenantId,
    Array.from({ length: n }, () => ({ at: new Date() })),
  );
}

/** The record at `seq`, its hashes in hex. */
export async function recordAt(tenantId: string, seq: number) {
  return hashedRecordOf(await db().evidence.findUniqueOrThrow({ where: await at(tenantId, seq), include: WITH_CONTRACT_HASH }), tenantId);
}

/** Changes a covered field and leaves the hash as it was (`hash_mismatch`). */
export async function editRecord(tenantId: string, seq: number, decision = 'tampered'): Promise<void> {
  await db().evidence.update({ where: await at(tenantId, seq), data: { decision } });
}

/**
 * Edits the record at `seq` and recomputes its hash and every later one's, the head too: a
 * chain that links perfectly, which only a verified checkpoint at or after `seq` can expose.
 */
export async function rewriteFrom(tenantId: string, seq: number, decision = 'rewritten'): Promise<void> {
  const rows = (
    await db().evidence.findMany({
      where: { ...(await tenantEvidence(tenantId)), seq: { gte: seq } },
      orderBy: { seq: 'asc' },
      include: WITH_CONTRACT_HASH,
    })
  ).map((row) => hashedRecordOf(row, tenantId));
  // Rewritten rows store their prevHash whole, as records before compact evidence did.
  let prevHash = seq === 1 ? GENESIS_HASH : (await recordAt(tenantId, seq - 1)).hash;
  for (const row of rows) {
    const changed = { ...row, prevHash, decision: row.seq === seq ? decision : row.decision };
    const hash = evidenceHash(changed);
    await db().evidence.update({
      where: { id: row.id },
      data: { prevHash: storedHash(changed.prevHash), decision: changed.decision, hash: storedHash(hash) },
    });
    prevHash = hash;
  }
  const last = rows.at(-1);
  if (last)
    await db().evidenceChainHead.update({ where: { tenantId_lane: { tenantId, lane: 0 } }, data: { seq: last.seq, hash: prevHash } });
}

export async function deleteRecord(tenantId: string, seq: number): Promise<void> {
  await db().evidence.delete({ where: await at(tenantId, seq) });
}

/** Swaps two records' places (their seq), each keeping its content and hash. */
export async function swapRecords(tenantId: string, a: number, b: number): Promise<void> {
  await db().evidence.update({ where: await at(tenantId, a), data: { seq: -1 } });
  await db().evidence.update({ where: await at(tenantId, b), data: { seq: a } });
  await db().evidence.update({ where: await at(tenantId, -1), data: { seq: b } });
}

/**
 * Inserts a made-up record right after `seq`, linked to it and hashed correctly; the records
 * after it move up one seq and the head with them (`prev_hash_mismatch` at seq + 2).
 */
export async function insertRecordAfter(tenantId: string, seq: number): Promise<void> {
  const later = await db().evidence.findMany({
    where: { ...(await tenantEvidence(tenantId)), seq: { gt: seq } },
    orderBy: { seq: 'desc' },
  });
  for (const row of later) await db().evidence.update({ where: { id: row.id }, data: { seq: row.seq + 1 } });
  const before = await recordAt(tenantId, seq);
  const made = { ...before, id: timeOrderedId(), seq: seq + 1, prevHash: before.hash, decision: 'allow', callId: 'inserted' };
  await db().evidence.createMany({ data: await toStoredRecords([{ ...made, hash: evidenceHash(made) }]) });
  const head = await db().evidenceChainHead.findUniqueOrThrow({ where: { tenantId_lane: { tenantId, lane: 0 } } });
  await db().evidenceChainHead.update({ where: { tenantId_lane: { tenantId, lane: 0 } }, data: { seq: head.seq + 1 } });
}

/** A copy of the last record put after it without moving the head (`head_mismatch`). */
export async function appendPastHead(tenantId: string): Promise<number> {
  const head = await db().evidenceChainHead.findUniqueOrThrow({ where: { tenantId_lane: { tenantId, lane: 0 } } });
  const last = await recordAt(tenantId, head.seq);
  const made = { ...last, id: timeOrderedId(), seq: head.seq + 1, prevHash: last.hash };
  await db().evidence.createMany({ data: await toStoredRecords([{ ...made, hash: evidenceHash(made) }]) });
  return made.seq;
}

/** Cuts the last `n` records off and moves the head back to the record before them. */
export async function truncate(tenantId: string, n: number): Promise<void> {
  const head = await db().evidenceChainHead.findUniqueOrThrow({ where: { tenantId_lane: { tenantId, lane: 0 } } });
  await db().evidence.deleteMany({ where: { ...(await tenantEvidence(tenantId)), seq: { gt: head.seq - n } } });
  const last = await recordAt(tenantId, head.seq - n);
  await db().evidenceChainHead.update({ where: { tenantId_lane: { tenantId, lane: 0 } }, data: { seq: last.seq, hash: last.hash } });
}
