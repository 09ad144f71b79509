import { db, type Tx } from '../db';
import { raw, sql, type Sql } from '../db/sql';

/**
 * A tenant's key: the small number that stands for its id in evidence (prisma/models/30-evidence.prisma,
 * TenantKey). A record holds its tenant's key and not the id; every index leads with the key.
 * The chain hash still covers the tenant's id, so a record whose key was changed to another
 * tenant's does not verify in that tenant's chain (verification hashes with the id it was asked for).
 */

/**
 * The tenant's key inside a statement: a scalar subquery both databases evaluate once, then use
 * as an index bound. NULL (so no record matches) for a tenant that has never had evidence.
 */
function tenantKeySql(tenantId: string): Sql {
  return sql`(SELECT "key" FROM "TenantKey" WHERE "tenantId" = ${tenantId})`;
}

/**
 * The condition that finds a tenant's records in a raw statement. `alias`: the Evidence table's
 * alias in the statement, if it has one.
 */
export function byTenantKey(tenantId: string, alias?: string): Sql {
  return sql`${raw(alias ? `${alias}."tenantKey"` : '"tenantKey"')} = ${tenantKeySql(tenantId)}`;
}

/**
 * The same condition for Prisma's query API, which cannot nest the key's subquery: the key is
 * read first (a lookup of TenantKey's unique index).
 */
export async function tenantEvidence(tenantId: string, client: Tx = db()): Promise<{ tenantKey: number }> {
  return { tenantKey: (await findTenantKey(tenantId, client)) ?? NO_TENANT_KEY };
}

/** The tenant's key, or null when it has none (it has never had evidence). */
export async function findTenantKey(tenantId: string, client: Tx = db()): Promise<number | null> {
  return (await client.tenantKey.findUnique({ where: { tenantId }, select: { key: true } }))?.key ?? null;
}

/** No record has this key: what a query names for a tenant that has none. */
export const NO_TENANT_KEY = -1;

/**
 * The tenant's key, added when it has none, through `client` (a transaction's, to add it with
 * the evidence that needs it): for the Prisma writer and code that writes evidence outside the
 * writers (seeding, benches). The raw stores read it with the chain head instead.
 */
export async function ensureTenantKey(tenantId: string, client: Tx = db()): Promise<number> {
  await client.$executeRaw`INSERT INTO "TenantKey" ("tenantId") VALUES (${tenantId}) ON CONFLICT ("tenantId") DO NOTHING`;
  return (await findTenantKey(tenantId, client)) as number;
}
