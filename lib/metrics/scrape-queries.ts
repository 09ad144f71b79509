import { db } from '../db';

/** Approvals waiting for a person now (pending and not past their deadline), as the overview counts them. */
export async function countPendingApprovals(options: { tenantId: string; now?: Date }): Promise<number> {
  return db().approval.count({ where: { tenantId: options.tenantId, status: 'pending', expiresAt: { gt: options.now ?? new Date() } } });
}

/**
 * The same count for every tenant at once, by tenant id. Deliberately across tenants: only the
 * operator's metrics token reads it (lib/metrics/metrics-access.ts). One grouped count on the
 * (status, expiresAt) index per scrape.
 */
export async function countPendingApprovalsByTenant(now = new Date()): Promise<Map<string, number>> {
  const rows = await db().approval.groupBy({
    by: ['tenantId'],
    where: { status: 'pending', expiresAt: { gt: now } },
    _count: { _all: true },
  });
  return new Map(rows.map((row) => [row.tenantId, row._count._all]));
}

/** Every tenant's id and slug: the `tenant` label is the id, which no person reads (operator only, like the above). */
export async function listTenantSlugs(): Promise<{ id: string; slug: string }[]> {
  return db().tenant.findMany({ select: { id: true, slug: true }, orderBy: { slug: 'asc' } });
}
