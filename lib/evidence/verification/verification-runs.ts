import { db, isUniqueViolation } from '../../db';
import { getInstanceSecret } from '../../auth/instance-secret';
import { NotFoundError } from '../../errors';
import { timeOrderedId } from '../time-ordered-id';
import { GENESIS_HASH } from '../evidence-hash';
import { cursorMac } from './verification-mac';
import { kickVerificationRuns } from './run-verification-runs';
import { readRunTarget } from './walk-evidence-chain';
import type { RunState, VerificationRunView, VerifyBreakReason } from './verification-types';

/** The run's row as its views need it. */
interface RunRow {
  id: string;
  state: string;
  throughSeq: number;
  checked: number;
  firstBrokenSeq: number | null;
  firstBrokenId: string | null;
  firstBrokenReason: string | null;
  error: string | null;
  checkpointId: string | null;
  requestedBy: string;
  attempts: number;
  createdAt: Date;
  startedAt: Date | null;
  finishedAt: Date | null;
}

export function verificationRunView(row: RunRow): VerificationRunView {
  return {
    id: row.id,
    state: row.state as RunState,
    total: row.throughSeq,
    throughSeq: row.throughSeq,
    checked: row.checked,
    firstBroken:
      row.firstBrokenSeq === null
        ? null
        : { seq: row.firstBrokenSeq, id: row.firstBrokenId ?? '', reason: row.firstBrokenReason as VerifyBreakReason },
    error: row.error,
    checkpointId: row.checkpointId,
    requestedBy: row.requestedBy,
    attempts: row.attempts,
    createdAt: row.createdAt.toISOString(),
    startedAt: row.startedAt?.toISOString() ?? null,
    finishedAt: row.finishedAt?.toISOString() ?? null,
  };
}

/**
 * Starts a full re-verification of the tenant's chain, up to its head now, as a background run
 * (./run-verification-runs.ts works on it, here and on every instance's job runner). One run per
 * tenant at a time: while one is queued or running, starting another answers that one
 * (`started: false`); the unique `activeTenantId` settles two starts at once, across instances.
 */
export async function startVerificationRun(options: {
  tenantId: string;
  /** `user:<id>` or `api_key:<id>`. */
  requestedBy: string;
  /** Start working on it in this process now (default true); tests drive the runner themselves. */
  runNow?: boolean;
}): Promise<{ run: VerificationRunView; started: boolean }> {
  const { tenantId } = options;
  const active = await db().evidenceVerificationRun.findUnique({ where: { activeTenantId: tenantId } });
  if (active) return { run: verificationRunView(active), started: false };
  // The run verifies up to the cut now (readChainCut): every lane's head, the newest as its target.
  const target = await readRunTarget(tenantId);
  const id = timeOrderedId();
  const cursor = {
    runId: id,
    tenantId,
    throughSeq: target.seq,
    throughHash: target.hash,
    throughLanes: target.lanes,
    cursorSeq: 0,
    cursorHash: GENESIS_HASH,
    checked: 0,
  };
  let row;
  try {
    row = await db().evidenceVerificationRun.create({
      data: {
        id,
        tenantId,
        state: 'queued',
        activeTenantId: tenantId,
        requestedBy: options.requestedBy,
        throughSeq: target.seq,
        throughHash: target.hash,
        throughLanes: target.lanes,
        cursorHash: GENESIS_HASH,
        cursorMac: cursorMac(await getInstanceSecret(), cursor),
      },
    });
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
    // Another start got there first: answer its run (or, if it has ended already, start again).
    const winner = await db().evidenceVerificationRun.findUnique({ where: { activeTenantId: tenantId } });
    if (winner) return { run: verificationRunView(winner), started: false };
    return startVerificationRun(options);
  }
  if (options.runNow !== false) kickVerificationRuns();
  return { run: verificationRunView(row), started: true };
}

/** One of the tenant's runs; another tenant's id is not found. */
export async function getVerificationRunOrThrow(options: { tenantId: string; id: string }): Promise<VerificationRunView> {
  const row = await db().evidenceVerificationRun.findFirst({ where: { id: options.id, tenantId: options.tenantId } });
  if (!row) throw new NotFoundError('verification run', options.id);
  return verificationRunView(row);
}

/** The tenant's most recent runs, newest first. */
export async function listVerificationRuns(options: { tenantId: string; limit?: number }): Promise<VerificationRunView[]> {
  const rows = await db().evidenceVerificationRun.findMany({
    where: { tenantId: options.tenantId },
    orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
    take: options.limit ?? 20,
  });
  return rows.map(verificationRunView);
}
