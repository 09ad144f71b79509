import { db } from '../db';
import { apiKeyNames } from '../auth/api-key-names';
import { decodeCursor, encodeCursor, invalidCursor } from '../listing/cursor';
import { EARLIEST_INSTANT } from '../listing/query-fields';
import { parseIssues } from '../evidence/parse-issues';
import { tenantEvidence } from '../evidence/tenant-key';
import { join, sql, toDate, type Sql } from '../db/sql';
import { HOLD_DECISIONS, POLICY_REFUSAL_CODES, TOOL_FAILURE_CODES, type ViolationKind } from './violation-kinds';

export interface ViolationFilters {
  code?: string;
  tool?: string;
  apiKeyId?: string;
  decision?: string;
  /** Agent mistakes, policy refusals, approval holds or tool failures (lib/violations/violation-kinds.ts). */
  kind?: ViolationKind;
  since?: Date;
  until?: Date;
}

export interface ViolationView {
  id: string;
  code: string;
  type: string;
  tool: string;
  api_key_id: string | null;
  api_key_name: string | null;
  path: string | null;
  decision: string;
  created_at: string;
  trace_id: string;
  call_id: string;
  /** The issue's message, from the evidence record it belongs to. */
  message: string | null;
}

/**
 * The filter conditions every violations query shares. Each single filter has an index that
 * leads with tenantId and ends with createdAt (code, tool, apiKeyId), so a filtered page
 * is a range walk, not a scan; decision is checked on the rows walked (nearly every violation
 * belongs to a deny, so it narrows little).
 */
export function violationConditions(tenantId: string, filters: ViolationFilters): Sql[] {
  const where: Sql[] = [sql`v."tenantId" = ${tenantId}`];
  if (filters.code) where.push(sql`v."code" = ${filters.code}`);
  if (filters.tool) where.push(sql`v."tool" = ${filters.tool}`);
  if (filters.apiKeyId) where.push(sql`v."apiKeyId" = ${filters.apiKeyId}`);
  if (filters.decision) where.push(sql`v."decision" = ${filters.decision}`);
  if (filters.kind) where.push(kindCondition(filters.kind));
  if (filters.since) where.push(sql`v."createdAt" >= ${filters.since}`);
  if (filters.until) where.push(sql`v."createdAt" < ${filters.until}`);
  return where;
}

/**
 * violationKind (lib/violations/violation-kinds.ts) as a condition: by the call's decision and
 * the code, a handful of values bound as parameters. It narrows the rows walked on
 * (tenantId, createdAt), as decision does.
 */
function kindCondition(kind: ViolationKind): Sql {
  const held = join([...HOLD_DECISIONS]);
  if (kind === 'approval') return sql`v."decision" IN (${held})`;
  if (kind === 'tool') return sql`v."decision" NOT IN (${held}) AND v."code" IN (${join([...TOOL_FAILURE_CODES])})`;
  if (kind === 'policy') return sql`v."decision" NOT IN (${held}) AND v."code" IN (${join([...POLICY_REFUSAL_CODES])})`;
  return sql`v."decision" NOT IN (${held}) AND v."code" NOT IN (${join([...TOOL_FAILURE_CODES, ...POLICY_REFUSAL_CODES])})`;
}

/**
 * One page of violations, newest first, after the keyset (createdAt, id) of the last row seen.
 * Each violation's record must be its tenant's: `tenantKey` is that tenant's key (read first,
 * tenantEvidence), bound as a value. A join on TenantKey made PostgreSQL hash every record of
 * the tenant (1.3 s for the first page at 1,000,000 records, bench:dashboard) where a bound key
 * lets it walk the violations' (tenantId, createdAt) index and look each record up by id.
 */
export function violationsQuery(options: {
  tenantId: string;
  tenantKey: number;
  filters: ViolationFilters;
  after?: { createdAt: Date; id: string };
  limit: number;
}): Sql {
  const where = violationConditions(options.tenantId, options.filters);
  if (options.after) {
    // Written as a range on createdAt plus a tie-break, so the index range applies.
    where.push(
      sql`v."createdAt" <= ${options.after.createdAt} AND (v."createdAt" < ${options.after.createdAt} OR v."id" < ${options.after.id})`,
    );
  }
  return sql`SELECT v."id", v."code", v."type", v."tool", v."apiKeyId", v."path", v."decision", v."createdAt", e."traceId", e."callId", e."errors"
    FROM "Violation" v JOIN "Evidence" e ON e."id" = v."evidenceId" AND e."tenantKey" = ${options.tenantKey}
    WHERE ${join(where, ' AND ')}
    ORDER BY v."createdAt" DESC, v."id" DESC
    LIMIT ${options.limit}`;
}

/** A page of violations, each with the createdAt Date the keyset continues from. */
async function fetchPage(options: {
  tenantId: string;
  tenantKey: number;
  filters: ViolationFilters;
  after?: { createdAt: Date; id: string };
  limit: number;
}): Promise<{ view: ViolationView; createdAt: Date }[]> {
  const rows = await db().$queryRaw<Record<string, unknown>[]>(violationsQuery(options));
  const names = await apiKeyNames(
    options.tenantId,
    rows.map((r) => (r.apiKeyId as string | null) ?? null),
  );
  return rows.map((r) => {
    const createdAt = toDate(r.createdAt);
    const code = String(r.code);
    const path = (r.path as string | null) ?? null;
    const issues = parseIssues(String(r.errors ?? '[]'));
    const issue = issues.find((i) => i.code === code && (path === null || i.path === path)) ?? issues.find((i) => i.code === code);
    const apiKeyId = (r.apiKeyId as string | null) ?? null;
    const view: ViolationView = {
      id: String(r.id),
      code,
      type: String(r.type),
      tool: String(r.tool),
      api_key_id: apiKeyId,
      api_key_name: apiKeyId ? (names.get(apiKeyId) ?? null) : null,
      path,
      decision: String(r.decision),
      created_at: createdAt.toISOString(),
      trace_id: String(r.traceId),
      call_id: String(r.callId),
      message: issue?.message ?? null,
    };
    return { view, createdAt };
  });
}

/** Violations newest first, with an opaque cursor for the next page (keyset, never OFFSET). */
export async function listViolations(options: {
  tenantId: string;
  filters?: ViolationFilters;
  cursor?: string;
  limit: number;
}): Promise<{ violations: ViolationView[]; next_cursor: string | null }> {
  const after = options.cursor ? decodeAfter(options.cursor) : undefined;
  // A tenant without a key has no records, so no violations either: its stand-in key matches none.
  const { tenantKey } = await tenantEvidence(options.tenantId);
  const rows = await fetchPage({ tenantId: options.tenantId, tenantKey, filters: options.filters ?? {}, after, limit: options.limit + 1 });
  const page = rows.slice(0, options.limit);
  const last = page[page.length - 1];
  return {
    violations: page.map((row) => row.view),
    next_cursor: rows.length > options.limit && last ? encodeCursor([last.createdAt.toISOString(), last.view.id]) : null,
  };
}

/** Every matching violation, newest first, page by page, at most `max` of them (the CSV export). */
export async function* iterateViolations(options: {
  tenantId: string;
  filters?: ViolationFilters;
  max: number;
  pageSize?: number;
}): AsyncGenerator<ViolationView[]> {
  const pageSize = options.pageSize ?? 1000;
  let after: { createdAt: Date; id: string } | undefined;
  let left = options.max;
  // Read once: a tenant's key never changes.
  const { tenantKey } = await tenantEvidence(options.tenantId);
  while (left > 0) {
    const limit = Math.min(pageSize, left);
    const rows = await fetchPage({ tenantId: options.tenantId, tenantKey, filters: options.filters ?? {}, after, limit });
    if (rows.length > 0) yield rows.map((row) => row.view);
    // A short page is the last one.
    if (rows.length < limit) return;
    left -= rows.length;
    const last = rows[rows.length - 1] as (typeof rows)[number];
    after = { createdAt: last.createdAt, id: last.view.id };
  }
}

function decodeAfter(cursor: string): { createdAt: Date; id: string } {
  const [at, id] = decodeCursor(cursor, ['string', 'string']);
  const createdAt = new Date(at);
  if (Number.isNaN(createdAt.getTime()) || createdAt < EARLIEST_INSTANT) throw invalidCursor();
  return { createdAt, id };
}
