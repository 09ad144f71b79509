import { db, dbProvider, type Db } from '../db';
import type { ValidationIssue } from '../validation/error-codes';
import { evidenceHash, GENESIS_HASH, type EvidenceContent } from './evidence-hash';

type Tx = Parameters<Parameters<Db['$transaction']>[0]>[0];

export interface EvidenceInput {
  tenantId: string;
  kind: 'pre' | 'post' | 'approval_decision';
  requestId: string;
  traceId: string;
  callId: string;
  w3cTraceparent?: string | null;
  apiKeyId?: string | null;
  actorUserId?: string | null;
  tool: string;
  contractVersion?: string | null;
  contractHash?: string | null;
  argsHash: string;
  idempotencyKey?: string | null;
  /** Redacted arguments as JSON text, only when the tenant opted in. */
  arguments?: string | null;
  decision: string;
  valid: boolean;
  errors: ValidationIssue[];
  warnings: ValidationIssue[];
  durationMs: number;
}

export interface RecordedEvidence {
  id: string;
  seq: number;
  hash: string;
}

/**
 * Serialises writers of one tenant's chain inside this process. Across processes the chain
 * head row is the lock: PostgreSQL takes it FOR UPDATE; SQLite has one writer at a time.
 */
const tails = new Map<string, Promise<unknown>>();

function serialize<T>(key: string, task: () => Promise<T>): Promise<T> {
  const previous = tails.get(key) ?? Promise.resolve();
  const run = previous.then(task, task);
  const tail = run.catch(() => undefined);
  tails.set(key, tail);
  void tail.then(() => {
    if (tails.get(key) === tail) tails.delete(key);
  });
  return run;
}

/**
 * Appends one record to the tenant's chain, with a violation row per error, in one
 * transaction, and resolves only once it is committed. `within` runs inside the same
 * transaction (e.g. consuming a single-use token, creating the pending approval), so the
 * decision and its side effects commit together or not at all.
 */
export async function recordEvidence<T = undefined>(input: EvidenceInput, within?: (tx: Tx) => Promise<T>): Promise<RecordedEvidence & { extra: T }> {
  const provider = dbProvider();
  return serialize(input.tenantId, () =>
    db().$transaction(async (tx) => {
      const extra = within ? await within(tx) : (undefined as T);
      // A write first: on SQLite it takes the write lock before the head is read.
      await tx.$executeRaw`INSERT INTO "EvidenceChainHead" ("tenantId", "seq", "hash") VALUES (${input.tenantId}, 0, ${GENESIS_HASH}) ON CONFLICT ("tenantId") DO NOTHING`;
      const heads =
        provider === 'postgresql'
          ? await tx.$queryRaw<{ seq: number; hash: string }[]>`SELECT "seq", "hash" FROM "EvidenceChainHead" WHERE "tenantId" = ${input.tenantId} FOR UPDATE`
          : await tx.$queryRaw<{ seq: number; hash: string }[]>`SELECT "seq", "hash" FROM "EvidenceChainHead" WHERE "tenantId" = ${input.tenantId}`;
      const head = heads[0] ?? { seq: 0, hash: GENESIS_HASH };
      const content: EvidenceContent = {
        tenantId: input.tenantId,
        seq: Number(head.seq) + 1,
        prevHash: head.hash,
        // Millisecond precision: both databases store it exactly, so the hash re-verifies.
        createdAt: new Date(),
        kind: input.kind,
        requestId: input.requestId,
        traceId: input.traceId,
        callId: input.callId,
        w3cTraceparent: input.w3cTraceparent ?? null,
        apiKeyId: input.apiKeyId ?? null,
        actorUserId: input.actorUserId ?? null,
        tool: input.tool,
        contractVersion: input.contractVersion ?? null,
        contractHash: input.contractHash ?? null,
        argsHash: input.argsHash,
        idempotencyKey: input.idempotencyKey ?? null,
        arguments: input.arguments ?? null,
        decision: input.decision,
        valid: input.valid,
        errors: JSON.stringify(input.errors),
        warnings: JSON.stringify(input.warnings),
        durationMs: Math.round(input.durationMs * 1000) / 1000,
      };
      const hash = evidenceHash(content);
      const row = await tx.evidence.create({ data: { ...content, hash }, select: { id: true } });
      if (input.errors.length > 0) {
        await tx.violation.createMany({
          data: input.errors.map((issue) => ({
            tenantId: input.tenantId,
            evidenceId: row.id,
            code: issue.code,
            type: issue.type,
            tool: input.tool,
            apiKeyId: input.apiKeyId ?? null,
            path: issue.path,
            decision: input.decision,
            createdAt: content.createdAt,
          })),
        });
      }
      await tx.evidenceChainHead.update({ where: { tenantId: input.tenantId }, data: { seq: content.seq, hash } });
      return { id: row.id, seq: content.seq, hash, extra };
    }),
  );
}
