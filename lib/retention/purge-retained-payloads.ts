import { db, type Tx } from '../db';
import { seqsAt } from '../evidence/seq-at';
import { recordAdminEvidence } from '../evidence/record-admin-evidence';
import { tenantEvidence } from '../evidence/tenant-key';

/**
 * The retention purge: raw payloads (evidence `arguments` and `payload`; an approval's
 * `arguments`, `editedArguments` and `context`) older than each tenant's retention window are
 * removed, everything else stays. With retention off, the window is zero: whatever was kept
 * while it was on goes at the next run.
 *
 * The chain still verifies afterwards: since `payloadHash` exists the chained hash covers the
 * digest of the payloads, not the payloads, and a record whose payloads are gone altogether is
 * accepted. Records written before that (arguments, no digest) are chained over their
 * arguments; removing those would break the chain, so they are kept and counted.
 *
 * Work is bounded: evidence is walked by the tenant's (tenantKey, seq) index from where the last
 * run stopped (a per-tenant watermark), in batches, up to the last record created before the
 * cutoff (found by a binary search over seq, seq-at.ts); each batch commits with the watermark, so a
 * run cut short resumes where it was. One instance runs the purge at a time (a lease row);
 * every state change is a compare-and-set, so an instance whose lease ran out cannot undo
 * another's progress. Each tenant gets one `retention_purge` evidence record per run that
 * purged (or found legacy records), with the cutoff and the counts; counts of batches
 * committed before a crash are carried to the next run's record.
 */

export interface PurgeReport {
  tenantId: string;
  cutoff: string;
  evidencePurged: number;
  approvalsPurged: number;
  legacyKept: number;
}

export interface PurgeOptions {
  now?: Date;
  /** Rows per batch. */
  batchSize?: number;
  /** Batches per tenant per run; what is left waits for the next run. */
  maxBatches?: number;
}

/** An approval's payloads stay at least this long after its decision: the agent fetches edited arguments and redeems its token (15 minutes) in that time. */
const APPROVAL_GRACE_MS = 60 * 60 * 1000;
const LEASE_KEY = 'retention_purge_lease';
const LEASE_MS = 15 * 60 * 1000;
const DECIDED = ['approved', 'denied', 'expired'];

interface TenantState {
  /** Evidence up to this seq has been purged. */
  seq: number;
  /** Counts committed but not yet in a retention_purge record. */
  unrecorded: { evidence: number; approvals: number; legacy: number };
}

class LostRace extends Error {}

/** One purge run over every tenant; an empty answer when another instance holds the lease. */
export async function purgeRetainedPayloads(options: PurgeOptions = {}): Promise<PurgeReport[]> {
  const now = options.now ?? new Date();
  const lease = await claimLease(now);
  if (!lease) return [];
  const reports: PurgeReport[] = [];
  try {
    let after: string | undefined;
    for (;;) {
      const tenants = await db().tenant.findMany({
        where: after ? { id: { gt: after } } : {},
        orderBy: { id: 'asc' },
        take: 100,
        select: { id: true, storeRawArguments: true, retentionDays: true },
      });
      if (tenants.length === 0) break;
      for (const tenant of tenants) {
        const report = await purgeTenant(tenant, now, options);
        if (report) reports.push(report);
      }
      after = tenants[tenants.length - 1]?.id;
    }
  } finally {
    await db().setting.updateMany({ where: { key: LEASE_KEY, value: lease }, data: { value: leaseValue(0) } });
  }
  return reports;
}

async function purgeTenant(
  tenant: { id: string; storeRawArguments: boolean; retentionDays: number },
  now: Date,
  options: PurgeOptions,
): Promise<PurgeReport | null> {
  const batchSize = options.batchSize ?? 1000;
  const maxBatches = options.maxBatches ?? 200;
  const retentionDays = tenant.storeRawArguments ? tenant.retentionDays : 0;
  const cutoff = new Date(now.getTime() - retentionDays * 24 * 3600 * 1000);
  const approvalCutoff = new Date(Math.min(cutoff.getTime(), now.getTime() - APPROVAL_GRACE_MS));
  const key = `retention_purge:${tenant.id}`;
  let { text, state } = await readState(key);

  // Every seq below the cutoff's is older than it (seq-at.ts); the purge walks up to that one.
  const [[cutoffSeq], evidenceOf] = await Promise.all([seqsAt(tenant.id, [cutoff]), tenantEvidence(tenant.id)]);
  const through = Math.max(0, (cutoffSeq ?? 0) - 1);
  try {
    for (let batch = 0; batch < maxBatches && state.seq < through; batch++) {
      const from = state.seq;
      const to = Math.min(through, from + batchSize);
      ({ text, state } = await commitBatch(key, text, state, async (tx, next) => {
        const range = { ...evidenceOf, seq: { gt: from, lte: to } };
        const purged = await tx.evidence.updateMany({
          where: { ...range, payloadHash: { not: null }, OR: [{ arguments: { not: null } }, { payload: { not: null } }] },
          data: { arguments: null, payload: null },
        });
        const legacy = await tx.evidence.count({ where: { ...range, payloadHash: null, arguments: { not: null } } });
        next.seq = to;
        next.unrecorded.evidence += purged.count;
        next.unrecorded.legacy += legacy;
      }));
    }
    for (let batch = 0; batch < maxBatches; batch++) {
      const retained = {
        tenantId: tenant.id,
        status: { in: DECIDED },
        createdAt: { lt: approvalCutoff },
        decidedAt: { lt: approvalCutoff },
        OR: [{ arguments: { not: null } }, { editedArguments: { not: null } }, { context: { not: null } }],
      };
      const ids = (await db().approval.findMany({ where: retained, take: batchSize, select: { id: true } })).map((row) => row.id);
      if (ids.length === 0) break;
      ({ text, state } = await commitBatch(key, text, state, async (tx, next) => {
        const purged = await tx.approval.updateMany({
          where: { ...retained, id: { in: ids } },
          data: { arguments: null, editedArguments: null, context: null },
        });
        next.unrecorded.approvals += purged.count;
      }));
      if (ids.length < batchSize) break;
    }
  } catch (error) {
    // Another instance took over this tenant (its lease outlived ours); its run records the counts.
    if (error instanceof LostRace) return null;
    throw error;
  }

  const counts = state.unrecorded;
  if (counts.evidence + counts.approvals + counts.legacy === 0) return null;
  const report: PurgeReport = {
    tenantId: tenant.id,
    cutoff: cutoff.toISOString(),
    evidencePurged: counts.evidence,
    approvalsPurged: counts.approvals,
    legacyKept: counts.legacy,
  };
  const recorded: TenantState = { seq: state.seq, unrecorded: { evidence: 0, approvals: 0, legacy: 0 } };
  try {
    await recordAdminEvidence(
      {
        tenantId: tenant.id,
        kind: 'retention_purge',
        action: 'retention_purge',
        actor: { kind: 'system' },
        details: {
          cutoff: report.cutoff,
          approvals_cutoff: approvalCutoff.toISOString(),
          retention_days: tenant.storeRawArguments ? tenant.retentionDays : null,
          through_seq: state.seq,
          evidence_purged: counts.evidence,
          approvals_purged: counts.approvals,
          legacy_kept: counts.legacy,
        },
      },
      (tx) => compareAndSet(tx, key, text, recorded),
    );
  } catch (error) {
    if (error instanceof LostRace) return null;
    throw error;
  }
  return report;
}

async function readState(key: string): Promise<{ text: string | null; state: TenantState }> {
  const row = await db().setting.findUnique({ where: { key }, select: { value: true } });
  const fresh: TenantState = { seq: 0, unrecorded: { evidence: 0, approvals: 0, legacy: 0 } };
  if (!row) return { text: null, state: fresh };
  try {
    const parsed = JSON.parse(row.value) as Partial<TenantState>;
    const n = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) && v >= 0 ? v : 0);
    return {
      text: row.value,
      state: {
        seq: n(parsed.seq),
        unrecorded: {
          evidence: n(parsed.unrecorded?.evidence),
          approvals: n(parsed.unrecorded?.approvals),
          legacy: n(parsed.unrecorded?.legacy),
        },
      },
    };
  } catch {
    return { text: row.value, state: fresh };
  }
}

/** Runs one batch and moves the state from `text` to what the batch made of it, in one transaction. */
async function commitBatch(
  key: string,
  text: string | null,
  state: TenantState,
  work: (tx: Tx, next: TenantState) => Promise<void>,
): Promise<{ text: string; state: TenantState }> {
  const next: TenantState = { seq: state.seq, unrecorded: { ...state.unrecorded } };
  const written = await db().$transaction(async (tx) => {
    await work(tx, next);
    return compareAndSet(tx, key, text, next);
  });
  return { text: written, state: next };
}

async function compareAndSet(tx: Tx, key: string, expected: string | null, state: TenantState): Promise<string> {
  const value = JSON.stringify(state);
  if (expected === null) {
    const inserted =
      await tx.$executeRaw`INSERT INTO "Setting" ("key", "value", "createdAt") VALUES (${key}, ${value}, ${new Date()}) ON CONFLICT ("key") DO NOTHING`;
    if (inserted !== 1) throw new LostRace();
  } else {
    const updated = await tx.setting.updateMany({ where: { key, value: expected }, data: { value } });
    if (updated.count !== 1) throw new LostRace();
  }
  return value;
}

/**
 * A lease's expiry as text that sorts like the number: epoch milliseconds, zero-padded digits
 * (digits only, so no database collation can order them differently).
 */
export function leaseValue(epochMs: number): string {
  return String(Math.max(0, Math.floor(epochMs))).padStart(16, '0');
}

/** The run's lease (its expiry), or null when another instance holds one that has not run out. */
async function claimLease(now: Date): Promise<string | null> {
  // Created once; never read but through `value`. A timestamp given, not the column's default,
  // which on SQLite would be text where Prisma writes integers (lib/db/adapter.ts).
  await db()
    .$executeRaw`INSERT INTO "Setting" ("key", "value", "createdAt") VALUES (${LEASE_KEY}, ${leaseValue(0)}, ${new Date()}) ON CONFLICT ("key") DO NOTHING`;
  const until = leaseValue(now.getTime() + LEASE_MS);
  const claimed = await db().setting.updateMany({
    where: { key: LEASE_KEY, value: { lt: leaseValue(now.getTime()) } },
    data: { value: until },
  });
  return claimed.count === 1 ? until : null;
}
