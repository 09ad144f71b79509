import { GENESIS_HASH } from './evidence-hash';
import type { LaneHead } from './chain-records';

/**
 * Evidence lanes on PostgreSQL: how several writers (instances, each committing one batch at a
 * time) append to one tenant's evidence without a lock held across a commit for the whole tenant.
 *
 * Each lane is a hash chain of its own, headed by an EvidenceChainHead row. A commit takes, per
 * tenant, any lane no other transaction holds (FOR UPDATE SKIP LOCKED, so it never waits for
 * one), links its records there and moves that head; when every lane is held it adds one. Lanes
 * stay as few as the most commits a tenant ever had in flight at once. The records' `seq` is
 * still one number per tenant across lanes, handed out by EvidenceSequence in a statement of its
 * own, outside the commit (`allocateSeqs`): the dashboard orders and pages by it, and
 * verification reads every lane in one pass over it (./verification/walk-evidence-chain.ts).
 *
 * Lanes are added, and seqs handed out, on a second connection that commits at once: a lane must
 * be visible before any record is in it, so that a verification which waits for every lane's
 * holder sees every record up to the seq it read first.
 */

/** Lanes one tenant may have; past it a commit waits for a lane rather than adding one. */
export const MAX_LANES = 64;

export type LaneQuery = (sql: string, params: unknown[]) => Promise<Record<string, unknown>[]>;

/** The tenant's key (./tenant-key.ts), read with its lane: no round trip of its own. */
const TENANT_KEY_OF = (tenantId: string) => `(SELECT "key" FROM "TenantKey" WHERE "tenantId" = ${tenantId})`;

/** Keys for tenants that have none (their first evidence), committed at once like a lane; two writers adding one at once add one. */
const ADD_TENANT_KEYS = `INSERT INTO "TenantKey" ("tenantId") SELECT unnest($1::text[]) ON CONFLICT ("tenantId") DO NOTHING
  RETURNING "tenantId", "key"`;
const TENANT_KEYS = `SELECT "tenantId", "key" FROM "TenantKey" WHERE "tenantId" = ANY($1::text[])`;

/** One free lane per tenant, locked by the transaction `query` runs in; tenants with none are left out. */
export const TAKE_FREE = `SELECT t.id AS "tenantId", h."lane", h."seq", h."hash", ${TENANT_KEY_OF('t.id')} AS "tenantKey"
  FROM unnest($1::text[]) AS t(id)
  CROSS JOIN LATERAL (SELECT "lane", "seq", "hash" FROM "EvidenceChainHead" WHERE "tenantId" = t.id
    ORDER BY "lane" LIMIT 1 FOR UPDATE SKIP LOCKED) h`;

/** Adds the tenant's next lane (lane 0 for its first); two writers adding at once add one between them. */
export const ADD_LANE = `INSERT INTO "EvidenceChainHead" ("tenantId", "lane", "seq", "hash")
  SELECT $1, COALESCE(MAX("lane") + 1, 0), 0, $2 FROM "EvidenceChainHead" WHERE "tenantId" = $1
  HAVING COALESCE(MAX("lane") + 1, 0) < $3
  ON CONFLICT ("tenantId", "lane") DO NOTHING RETURNING "lane"`;

/**
 * Hands out `n` seqs per tenant: the last one handed out and the batch's createdAt, which never
 * goes back for a tenant (the later of the newest given and this writer's clock), so seq and
 * createdAt grow together whichever instance wrote. A tenant's first allocation starts after its
 * lane heads (chains written before lanes existed).
 */
export const ALLOCATE_SEQS = `INSERT INTO "EvidenceSequence" ("tenantId", "seq", "createdAt")
  SELECT t.id, COALESCE((SELECT MAX("seq") FROM "EvidenceChainHead" WHERE "tenantId" = t.id), 0) + t.n, $3::timestamp(3)
  FROM unnest($1::text[], $2::int[]) AS t(id, n)
  ON CONFLICT ("tenantId") DO UPDATE SET "seq" = "EvidenceSequence"."seq" + ($2::int[])[array_position($1::text[], excluded."tenantId")],
    "createdAt" = GREATEST("EvidenceSequence"."createdAt", excluded."createdAt")
  RETURNING "tenantId", "seq", to_char("createdAt", 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS "createdAt"`;

/**
 * Locks one lane per tenant for the transaction `tx` runs in, adding lanes through `autocommit`
 * (a connection outside it) when all are held. Tenants in sorted order; the wait at MAX_LANES is
 * on one lane per tenant in that order.
 */
export async function takeLanes(tx: LaneQuery, autocommit: LaneQuery, tenants: readonly string[]): Promise<Map<string, LaneHead>> {
  const heads = new Map<string, LaneHead>();
  let missing = [...tenants].sort();
  for (let attempt = 0; missing.length > 0; attempt++) {
    const rows = await tx(TAKE_FREE, [missing]);
    for (const r of rows)
      heads.set(r.tenantId as string, { lane: Number(r.lane), seq: Number(r.seq), hash: r.hash as string, tenantKey: key(r) });
    missing = missing.filter((t) => !heads.has(t));
    for (const tenantId of missing) {
      const added = await autocommit(ADD_LANE, [tenantId, GENESIS_HASH, MAX_LANES]);
      // Full: wait for a lane, spread by attempt so waiters do not all queue on lane 0.
      if (added.length === 0 && attempt >= 3) {
        const [row] = await tx(
          `SELECT "lane", "seq", "hash", ${TENANT_KEY_OF('$1')} AS "tenantKey" FROM "EvidenceChainHead" WHERE "tenantId" = $1 AND "lane" = $2 FOR UPDATE`,
          [tenantId, attempt % MAX_LANES],
        );
        if (row) heads.set(tenantId, { lane: Number(row.lane), seq: Number(row.seq), hash: row.hash as string, tenantKey: key(row) });
      }
    }
    missing = missing.filter((t) => !heads.has(t));
    if (attempt > MAX_LANES + 8) throw new Error('no evidence lane could be taken');
  }
  await addTenantKeys(autocommit, heads);
  return heads;
}

const key = (row: Record<string, unknown>): number | undefined => (row.tenantKey === null ? undefined : Number(row.tenantKey));

/** Gives a key to each tenant whose lane came without one: its first evidence. */
async function addTenantKeys(autocommit: LaneQuery, heads: Map<string, LaneHead>): Promise<void> {
  const keyless = [...heads].filter(([, head]) => head.tenantKey === undefined).map(([tenantId]) => tenantId);
  if (keyless.length === 0) return;
  const added = await autocommit(ADD_TENANT_KEYS, [keyless]);
  // Those another writer added meanwhile are not returned by the insert.
  const read = added.length < keyless.length ? await autocommit(TENANT_KEYS, [keyless]) : added;
  for (const row of read) {
    const head = heads.get(row.tenantId as string);
    if (head) head.tenantKey = Number(row.key);
  }
  for (const tenantId of keyless)
    if ((heads.get(tenantId) as LaneHead).tenantKey === undefined) throw new Error('the tenant has no evidence key (deleted meanwhile?)');
}

/**
 * Gives each held lane the seqs and createdAt for the records `counts` says the tenant has in
 * this commit, from EvidenceSequence through `autocommit`.
 */
export async function allocateSeqs(
  autocommit: LaneQuery,
  heads: Map<string, LaneHead>,
  counts: Map<string, number>,
  now: Date,
): Promise<void> {
  const tenants = [...counts.keys()].sort();
  if (tenants.length === 0) return;
  const rows = await autocommit(ALLOCATE_SEQS, [tenants, tenants.map((t) => counts.get(t) as number), now.toISOString()]);
  for (const r of rows) {
    const head = heads.get(r.tenantId as string);
    if (!head) continue;
    head.nextSeq = Number(r.seq) - (counts.get(r.tenantId as string) as number) + 1;
    head.createdAt = new Date(r.createdAt as string);
  }
}
