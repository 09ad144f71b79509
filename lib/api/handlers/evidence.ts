import { z } from 'zod';
import { defineRoute } from '../define-route';
import { NO_QUERY } from '../no-query';
import { rowIdParam } from '../path-params';
import { actorOf } from './members';
import { actorRef } from '../../members/member-actor';
import { verifyEvidenceJoined } from '../../evidence/verification/joined-verify';
import { getVerificationRunOrThrow, listVerificationRuns, startVerificationRun } from '../../evidence/verification/verification-runs';
import { CHECKPOINT_SOURCES, RUN_STATES, VERIFY_BREAK_REASONS, VERIFY_MODES } from '../../evidence/verification/verification-types';

/** The same people as the chain's whole walk always had: admin keys and admins. */
const manage = { apiKey: 'admin', session: 'manage_keys' } as const;

const BrokenLinkSchema = z
  .object({
    seq: z.number().int(),
    id: z.string().describe("The record's id; empty when no record is at that seq."),
    reason: z.enum(VERIFY_BREAK_REASONS),
  })
  .strict();
const CheckpointSchema = z
  .object({
    id: z.string(),
    seq: z.number().int(),
    hash: z.string(),
    lanes: z
      .array(z.object({ lane: z.number().int(), seq: z.number().int(), hash: z.string() }).strict())
      .nullable()
      .describe(
        "Every lane's verified record when the tenant's evidence has lanes besides 0 (several writers on PostgreSQL); seq and hash are the newest of them.",
      ),
    records: z.number().int(),
    verifiedAt: z.string(),
    source: z.enum(CHECKPOINT_SOURCES),
  })
  .strict();

/** GET /api/v1/evidence/verify — verify the tenant's hash chain, from the newest checkpoint or from the start. */
export const verifyEvidenceHandler = defineRoute({
  auth: manage,
  query: z
    .object({
      mode: z
        .enum(VERIFY_MODES)
        .optional()
        .describe(
          'incremental (default): only the records after the newest verified checkpoint; full: every record, in this request (large chains: start a verification run instead).',
        ),
    })
    .strict(),
  response: z
    .object({
      valid: z.boolean(),
      records: z.number().int().describe("Records known to verify: the checkpoint's, plus those read now."),
      head: z.object({ seq: z.number().int(), hash: z.string() }).strict().nullable(),
      firstBroken: BrokenLinkSchema.nullable(),
      covered: z
        .object({
          mode: z.enum(VERIFY_MODES).describe('incremental when a checkpoint was relied on; full when the walk began at the first record.'),
          fromSeq: z.number().int().nullable().describe('The first and last seq read this time; null when nothing was new.'),
          toSeq: z.number().int().nullable(),
          checked: z.number().int(),
          checkpoint: CheckpointSchema.nullable().describe('The checkpoint the answer relies on for every record up to its seq.'),
        })
        .strict(),
      ignoredCheckpoints: z.array(z.object({ id: z.string(), seq: z.number().int(), reason: z.literal('mac_mismatch') }).strict()),
      recordedCheckpoint: CheckpointSchema.nullable(),
    })
    .strict(),
  handler: async ({ caller, query, call }) => ({
    body: await verifyEvidenceJoined({ tenantId: caller.tenantId, mode: query?.mode, signal: call.signal }),
  }),
});

const RunSchema = z
  .object({
    id: z.string(),
    state: z.enum(RUN_STATES),
    total: z.number().int().describe('Records the run verifies: seq 1 to throughSeq.'),
    throughSeq: z.number().int().describe('The chain head when the run was started.'),
    checked: z.number().int(),
    firstBroken: BrokenLinkSchema.nullable(),
    error: z.string().nullable().describe('interrupted: the run was interrupted too often to finish.'),
    checkpointId: z.string().nullable(),
    requestedBy: z.string(),
    attempts: z.number().int(),
    createdAt: z.string(),
    startedAt: z.string().nullable(),
    finishedAt: z.string().nullable(),
  })
  .strict();

/**
 * POST /api/v1/evidence/verify/runs — start a full re-verification in the background: 202 with
 * the new run, or 200 with the tenant's run already queued or running (one at a time).
 */
export const startVerificationRunHandler = defineRoute({
  auth: manage,
  response: RunSchema,
  handler: async ({ caller }) => {
    const { run, started } = await startVerificationRun({ tenantId: caller.tenantId, requestedBy: actorRef(actorOf(caller)) });
    return { status: started ? 202 : 200, body: run, headers: { location: `/api/v1/evidence/verify/runs/${run.id}` } };
  },
});

/** GET /api/v1/evidence/verify/runs — the tenant's latest verification runs, newest first. */
export const listVerificationRunsHandler = defineRoute({
  auth: manage,
  query: NO_QUERY,
  response: z.object({ runs: z.array(RunSchema) }).strict(),
  handler: async ({ caller }) => ({ body: { runs: await listVerificationRuns({ tenantId: caller.tenantId }) } }),
});

/** GET /api/v1/evidence/verify/runs/{id} — one run's progress, or its result. */
export const getVerificationRunHandler = defineRoute({
  auth: manage,
  query: NO_QUERY,
  params: z.object({ id: rowIdParam('verification run') }),
  response: RunSchema,
  handler: async ({ caller, params }) => ({ body: await getVerificationRunOrThrow({ tenantId: caller.tenantId, id: params.id }) }),
});
