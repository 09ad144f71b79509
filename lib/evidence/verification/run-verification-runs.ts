import { randomUUID } from 'node:crypto';
import { db } from '../../db';
import { log } from '../../log';
import { getInstanceSecret } from '../../auth/instance-secret';
import { checkpointHashes, loadCheckpoints, recordCheckpoint } from './evidence-checkpoints';
import { cursorMac, cursorMacHolds } from './verification-mac';
import {
  CHAIN_START,
  checkChainEnd,
  decodePosition,
  encodeLanes,
  readChainCut,
  readRunTarget,
  walkEvidenceChain,
  type ChainPosition,
} from './walk-evidence-chain';
import { checkAnchor } from './verify-evidence';
import type { BrokenLink, CheckpointView } from './verification-types';

/**
 * The worker side of full verification runs (./verification-runs.ts starts them). A run is
 * worked on under a lease renewed with every page, its progress (records checked, and the last
 * verified record as a MAC'd cursor) saved with it. An instance killed mid-run leaves the run
 * `running` with a lease that runs out; the next tick of any instance's job runner claims it and
 * resumes from the cursor. A run that keeps being interrupted (its instance dies, or its
 * database calls fail) ends `failed` with error `interrupted` after MAX_RUN_ATTEMPTS starts,
 * rather than being retried forever. Every state change is a compare-and-set on the lease, so an
 * instance whose lease ran out cannot overwrite the one that took over.
 */
export const RUN_LEASE_MS = 30_000;
export const MAX_RUN_ATTEMPTS = 5;
/**
 * Progress (and the lease) is saved at most this often: a commit per page cost PostgreSQL a
 * third of a run's time (bench/verify), and a second is fine-grained enough to watch.
 */
const PROGRESS_EVERY_MS = 1_000;

interface RunnerState {
  inFlight: Set<Promise<unknown>>;
  stopping: boolean;
}

// On globalThis: Next's bundle of the route handlers and the server's own copy of this module
// (the job runner, shutdown) share one process and must share one state.
const shared = globalThis as unknown as { toolgateVerificationRuns?: RunnerState };
const state: RunnerState = (shared.toolgateVerificationRuns ??= { inFlight: new Set(), stopping: false });

interface RunRow {
  id: string;
  tenantId: string;
  state: string;
  throughSeq: number;
  throughHash: string;
  throughLanes: string | null;
  checked: number;
  cursorSeq: number;
  cursorHash: string;
  cursorLanes: string | null;
  cursorMac: string;
  attempts: number;
  leaseOwner: string | null;
  leaseUntil: Date | null;
  startedAt: Date | null;
}

export interface RunOptions {
  /** Records per page (and per progress update). */
  pageSize?: number;
  /** Stop each run after about this many records and leave it for the next call (tests). */
  maxRecords?: number;
}

/** Works on due runs in this process now, without waiting (a run was just started). */
export function kickVerificationRuns(): void {
  if (state.stopping) return;
  const running = runDueVerificationRuns().catch((error: unknown) =>
    log.error('verification run failed', { error: error instanceof Error ? error.message : String(error) }),
  );
  state.inFlight.add(running);
  void running.finally(() => state.inFlight.delete(running));
}

/** Resolves once this process has no run in progress that kickVerificationRuns started. */
export async function settleVerificationRuns(): Promise<void> {
  while (state.inFlight.size > 0) await Promise.allSettled([...state.inFlight]);
}

/**
 * Shutdown: runs in progress stop at their next page and give their lease back, and none
 * starts in this process any more.
 */
export async function stopVerificationRuns(): Promise<void> {
  state.stopping = true;
  await settleVerificationRuns();
}

/**
 * Runs one call works on at most; the next tick takes the rest. The runs already taken are bound
 * as a list in the claim's `notIn`, which SQLite refuses past 999 parameters (P2029): a tenant
 * starting run after run on a short chain could otherwise keep one call going past that.
 */
const RUNS_PER_CALL = 500;

/**
 * Claims and works on every due run: queued, or running with a lease that ran out. Each run is
 * taken at most once per call, and at most RUNS_PER_CALL runs. Answers how many it worked on.
 * The job runner's tick.
 */
export async function runDueVerificationRuns(options: RunOptions = {}): Promise<number> {
  const seen = new Set<string>();
  for (;;) {
    if (state.stopping || seen.size >= RUNS_PER_CALL) return seen.size;
    const claimed = await claimDueRun(seen);
    if (!claimed) return seen.size;
    seen.add(claimed.run.id);
    await advanceRun(claimed.run, claimed.token, options);
  }
}

async function claimDueRun(seen: Set<string>): Promise<{ run: RunRow; token: string } | null> {
  const now = new Date();
  const due: RunRow[] = await db().evidenceVerificationRun.findMany({
    where: { state: { in: ['queued', 'running'] }, OR: [{ leaseUntil: null }, { leaseUntil: { lt: now } }], id: { notIn: [...seen] } },
    orderBy: { createdAt: 'asc' },
    take: 10,
  });
  for (const run of due) {
    const interrupted = run.leaseOwner !== null;
    const unchanged = { id: run.id, state: run.state, leaseOwner: run.leaseOwner, leaseUntil: run.leaseUntil };
    if (interrupted && run.attempts >= MAX_RUN_ATTEMPTS) {
      const ended = await db().evidenceVerificationRun.updateMany({
        where: unchanged,
        data: { state: 'failed', error: 'interrupted', activeTenantId: null, leaseOwner: null, leaseUntil: null, finishedAt: now },
      });
      if (ended.count === 1) log.warn('verification run failed: interrupted too often', { run_id: run.id, tenant_id: run.tenantId });
      continue;
    }
    const token = randomUUID();
    // A start and every resumption after an interruption count; taking up a run that gave its
    // lease back after a slice (maxRecords, shutdown) does not.
    const counts = run.state === 'queued' || interrupted;
    const claimed = await db().evidenceVerificationRun.updateMany({
      where: unchanged,
      data: {
        state: 'running',
        leaseOwner: token,
        leaseUntil: new Date(now.getTime() + RUN_LEASE_MS),
        ...(counts ? { attempts: { increment: 1 } } : {}),
        startedAt: run.startedAt ?? now,
      },
    });
    if (claimed.count === 1) return { run, token };
  }
  return null;
}

async function advanceRun(claimed: RunRow, token: string, options: RunOptions): Promise<void> {
  const mine = { id: claimed.id, leaseOwner: token };
  let run = claimed;
  try {
    const secret = await getInstanceSecret();
    let cursor: ChainPosition = decodePosition({ seq: run.cursorSeq, hash: run.cursorHash }, run.cursorLanes);
    let base = run.checked;
    if (!cursorMacHolds(secret, { ...run, runId: run.id })) {
      // Not a target and resume point this instance wrote (edited, or another TOOLGATE_SECRET):
      // neither is trusted. The run starts again from the first record, up to the cut now.
      const target = await readRunTarget(run.tenantId);
      log.warn('verification run cursor MAC does not hold; starting again from the first record, up to the chain as it is now', {
        run_id: run.id,
        through_seq: target.seq,
      });
      run = { ...run, throughSeq: target.seq, throughHash: target.hash, throughLanes: target.lanes };
      cursor = CHAIN_START;
      base = 0;
    }
    const { valid } = await loadCheckpoints({ tenantId: run.tenantId, secret });
    const progress = (checked: number, position: ChainPosition) => {
      const cursorLanes = encodeLanes(position);
      return {
        checked,
        cursorSeq: position.last.seq,
        cursorHash: position.last.hash,
        cursorLanes,
        cursorMac: cursorMac(secret, {
          runId: run.id,
          tenantId: run.tenantId,
          throughSeq: run.throughSeq,
          throughHash: run.throughHash,
          throughLanes: run.throughLanes,
          cursorSeq: position.last.seq,
          cursorHash: position.last.hash,
          cursorLanes,
          checked,
        }),
      };
    };
    // The lane heads when the run started (verification-runs.ts): lane 0 alone when throughLanes is null.
    const target = decodePosition({ seq: run.throughSeq, hash: run.throughHash }, run.throughLanes);
    const cut = { throughSeq: run.throughSeq, heads: target.lanes };
    const points = checkpointHashes(valid.filter((c) => c.seq <= run.throughSeq));
    let savedAt = Date.now();
    const walk = await walkEvidenceChain({
      tenantId: run.tenantId,
      after: cursor,
      throughSeq: run.throughSeq,
      heads: target.lanes,
      checkpoints: points,
      pageSize: options.pageSize,
      maxRecords: options.maxRecords,
      onPage: async ({ checked, position }) => {
        if (Date.now() - savedAt < PROGRESS_EVERY_MS) return !state.stopping;
        savedAt = Date.now();
        const saved = await db().evidenceVerificationRun.updateMany({
          where: mine,
          data: { ...targetOf(run), ...progress(base + checked, position), leaseUntil: new Date(savedAt + RUN_LEASE_MS) },
        });
        return saved.count === 1 && !state.stopping;
      },
    });
    const checked = base + walk.checked;
    if (!walk.complete) {
      // A slice ended, or this process is stopping: the lease goes back, the progress stays.
      await db().evidenceVerificationRun.updateMany({
        where: mine,
        data: { ...targetOf(run), ...progress(checked, walk.position), leaseOwner: null, leaseUntil: null },
      });
      return;
    }
    // Each lane's end as it was at the start: records added since are the next run's.
    const firstBroken: BrokenLink | null =
      walk.firstBroken ??
      (await checkChainEnd({ tenantId: run.tenantId, cut, from: cursor, walk, checkpoints: points })) ??
      (await checkCheckpointsBeyond(run, valid));
    const checkpoint =
      firstBroken === null && walk.position.last.seq > 0
        ? await recordCheckpoint({ tenantId: run.tenantId, secret, position: walk.position, records: checked, source: 'run' })
        : null;
    const ended = await db().evidenceVerificationRun.updateMany({
      where: mine,
      data: {
        ...targetOf(run),
        ...progress(checked, walk.position),
        state: firstBroken ? 'failed' : 'passed',
        firstBrokenSeq: firstBroken?.seq ?? null,
        firstBrokenId: firstBroken?.id ?? null,
        firstBrokenReason: firstBroken?.reason ?? null,
        checkpointId: checkpoint?.id ?? null,
        activeTenantId: null,
        leaseOwner: null,
        leaseUntil: null,
        finishedAt: new Date(),
      },
    });
    if (ended.count === 1)
      log.info('verification run ended', { run_id: run.id, tenant_id: run.tenantId, passed: firstBroken === null, checked });
  } catch (error) {
    // The lease is let go at once and the owner kept, so the next tick resumes it as an attempt.
    await db()
      .evidenceVerificationRun.updateMany({ where: mine, data: { leaseUntil: new Date() } })
      .catch(() => undefined);
    throw error;
  }
}

/** The run's target, saved with its progress: a run that started again has a new one. */
const targetOf = (run: RunRow) => ({ throughSeq: run.throughSeq, throughHash: run.throughHash, throughLanes: run.throughLanes });

/**
 * Checkpoints past the run's target: those recorded since it started name records added since,
 * which must still be there as verified; one recorded before it started names records the target
 * does not reach, and its records, or its lane's head, will be missing: records were cut off the
 * chain's end, which walking up to the target cannot see (checkAnchor, as an incremental verify
 * checks the checkpoint it starts from).
 */
async function checkCheckpointsBeyond(run: RunRow, valid: readonly CheckpointView[]): Promise<BrokenLink | null> {
  const beyond = valid.filter((c) => c.seq > run.throughSeq).sort((a, b) => a.seq - b.seq);
  if (beyond.length === 0) return null;
  const cut = await readChainCut(run.tenantId);
  for (const checkpoint of beyond) {
    const broken = await checkAnchor(run.tenantId, checkpoint, cut);
    if (broken) return broken;
  }
  return null;
}
