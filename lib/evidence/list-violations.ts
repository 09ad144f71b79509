import { db } from '../db';

/**
 * Violations newest first, with a cursor (the last row's id) for the next page. Each filter
 * matches an index that leads with tenantId.
 */
export async function listViolations(options: { tenantId: string; code?: string; tool?: string; api_key_id?: string; since?: string; until?: string; cursor?: string; limit: number }) {
  const rows = await db().violation.findMany({
    where: {
      tenantId: options.tenantId,
      ...(options.code ? { code: options.code } : {}),
      ...(options.tool ? { tool: options.tool } : {}),
      ...(options.api_key_id ? { apiKeyId: options.api_key_id } : {}),
      ...(options.since || options.until ? { createdAt: { ...(options.since ? { gte: new Date(options.since) } : {}), ...(options.until ? { lt: new Date(options.until) } : {}) } } : {}),
    },
    orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
    take: options.limit + 1,
    ...(options.cursor ? { cursor: { id: options.cursor }, skip: 1 } : {}),
    select: { id: true, code: true, type: true, tool: true, apiKeyId: true, path: true, decision: true, createdAt: true, evidence: { select: { traceId: true, callId: true } } },
  });
  const page = rows.slice(0, options.limit);
  return {
    violations: page.map((row) => ({ id: row.id, code: row.code, type: row.type, tool: row.tool, api_key_id: row.apiKeyId, path: row.path, decision: row.decision, created_at: row.createdAt.toISOString(), trace_id: row.evidence.traceId, call_id: row.evidence.callId })),
    next_cursor: rows.length > options.limit ? (page[page.length - 1]?.id ?? null) : null,
  };
}
