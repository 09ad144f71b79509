import { db } from '../db';
import { ADMIN_EVIDENCE_KINDS } from '../evidence/evidence-kinds';
import { decodeCursor, encodeCursor } from '../listing/cursor';
import { join, nullableNum, num, sql, toBool, toDate, type Sql } from '../db/sql';
import { parsePolicyEvidence } from '../policies/parse-policy-evidence';
import { apiKeyNames } from '../auth/api-key-names';
import type { TracePage, TraceSummary } from './trace-summary';
import { seqsAt } from '../evidence/seq-at';
import { byTenantKey, tenantEvidence } from '../evidence/tenant-key';
import { searchCondition, searchTraceIds, type TraceSearch, type TraceSearchMatch } from './search-traces';

export interface TraceFilters {
  tool?: string;
  /** The decision of the trace's first record (the call's validate/pre, as a rule). */
  decision?: string;
  apiKeyId?: string;
  since?: Date;
  until?: Date;
  /** Call ids and trace ids starting with this text, or containing it (`match`). */
  search?: string;
  match?: TraceSearchMatch;
  /** List the records a shadow policy or contract version would have decided differently. */
  shadowDiffers?: boolean;
}

export type { ShadowSummary, TracePage, TraceSummary } from './trace-summary';

/**
 * Time bounds as a range of the tenant's evidence sequence numbers: seq and createdAt grow
 * together, so a binary search over seq (seqsAt, one statement for both bounds) turns a time
 * filter into a seq range that the (tenantKey, seq) index walks directly. Null when no record
 * can match.
 */
export async function seqRangeFor(
  tenantId: string,
  since: Date | undefined,
  until: Date | undefined,
): Promise<{ min?: number; max?: number } | null> {
  if (!since && !until) return {};
  const [first = null, second = null] = await seqsAt(
    tenantId,
    [since, until].filter((d) => d !== undefined),
  );
  if (first === null) return null;
  const range: { min?: number; max?: number } = {};
  if (since) range.min = first;
  if (until) range.max = (since ? (second as number) : first) - 1;
  if (range.min !== undefined && range.max !== undefined && range.min > range.max) return null;
  return range;
}

/**
 * The statement behind the traces list (exported for the benchmark's EXPLAIN). One row per
 * trace: its first record, found as "no earlier record with the same traceId", a probe of the
 * (tenantKey, traceId, seq) index per candidate row. Newest first by seq within [minSeq, maxSeq];
 * a tool filter walks the (tenantKey, tool, seq) index, everything else the (tenantKey, seq) one.
 */
export function traceRowsQuery(options: {
  tenantId: string;
  filters: TraceFilters;
  minSeq?: number;
  maxSeq?: number;
  limit: number;
  searchTraceIds?: string[];
  /** A search no index serves: a condition on each walked record. */
  scanSearch?: TraceSearch;
}): Sql {
  const { tenantId, filters } = options;
  // Administrative records (membership, settings, retention purges) share the chain but are
  // not calls.
  // By tool a range of (tenantKey, tool, seq), a search's traces probes of (tenantKey, traceId,
  // seq), else the tenant's (tenantKey, seq) range.
  const where: Sql[] = [byTenantKey(tenantId, 'e'), sql`e."kind" NOT IN (${join([...ADMIN_EVIDENCE_KINDS])})`];
  if (filters.tool) where.push(sql`e."tool" = ${filters.tool}`);
  if (filters.decision) where.push(sql`e."decision" = ${filters.decision}`);
  if (filters.apiKeyId) where.push(sql`e."apiKeyId" = ${filters.apiKeyId}`);
  if (options.searchTraceIds) where.push(sql`e."traceId" IN (${join(options.searchTraceIds)})`);
  if (options.scanSearch) where.push(searchCondition(options.scanSearch));
  if (options.minSeq !== undefined) where.push(sql`e."seq" >= ${options.minSeq}`);
  if (options.maxSeq !== undefined) where.push(sql`e."seq" <= ${options.maxSeq}`);
  if (filters.shadowDiffers) where.push(sql`e."shadowDiffers" = TRUE`);
  // `+p."seq"`: SQLite keeps no statistics unless ANALYZE runs; given a usable seq term it
  // could walk the (tenantKey, seq) index over every earlier record of the tenant for each row.
  // The unary plus makes seq a plain filter, so the probe goes through (tenantKey, traceId, seq)
  // as it does on PostgreSQL.
  else
    where.push(
      sql`NOT EXISTS (SELECT 1 FROM "Evidence" p WHERE ${byTenantKey(tenantId, 'p')} AND p."traceId" = e."traceId" AND +p."seq" < e."seq")`,
    );
  // A search matches a handful of rows through the traceId index; ordering by an expression
  // keeps SQLite from preferring the seq index (which would avoid a sort of those few rows by
  // walking all of the tenant's).
  const order = options.searchTraceIds ? sql`+e."seq" DESC` : sql`e."seq" DESC`;
  return sql`SELECT e."seq", e."traceId", e."callId", e."kind", e."createdAt", e."tool", e."decision", e."apiKeyId", e."contractVersion", e."policyId", e."policyVersion", e."policyRule", e."shadowDiffers", ${filters.shadowDiffers ? sql`e."policy"` : sql`NULL`} AS "policy"
    FROM "Evidence" e
    WHERE ${join(where, ' AND ')}
    ORDER BY ${order}
    LIMIT ${options.limit + 1}`;
}

/** Per-trace totals for the rows of one page: a probe of (tenantKey, traceId, seq) per trace. */
export function traceTotalsQuery(tenantId: string, traceIds: string[]): Sql {
  return sql`SELECT "traceId", count(*) AS "records", min("seq") AS "firstSeq", max("seq") AS "lastSeq", min("createdAt") AS "firstAt", max("createdAt") AS "lastAt", sum("durationMs") AS "checksMs", sum("executionMs") AS "executionMs"
    FROM "Evidence" WHERE ${byTenantKey(tenantId)} AND "traceId" IN (${join(traceIds)}) GROUP BY "traceId"`;
}

/**
 * How many records one request may walk for filters no index serves (decision, key, shadow
 * flag): a filter matching nothing would otherwise walk the tenant's whole history. A page cut
 * short by the window still hands out a cursor, and says how far back it searched.
 */
export const TRACE_SCAN_WINDOW = 50_000;

/** Traces newest first, filtered, with a cursor for the next page. */
export async function listTraces(options: {
  tenantId: string;
  filters?: TraceFilters;
  cursor?: string;
  limit: number;
  scanWindow?: number;
}): Promise<TracePage> {
  const { tenantId } = options;
  const filters = options.filters ?? {};
  const search: TraceSearch | undefined = filters.search ? { text: filters.search, match: filters.match ?? 'prefix' } : undefined;
  // The tenant's key for the Prisma reads below: looked up once, alongside the first statements.
  // A page that returns early never awaits it; its failure is then the caller's no concern.
  const tenant = tenantEvidence(tenantId);
  tenant.catch(() => undefined);
  const searchIds = search?.match === 'prefix' ? await searchTraceIds(tenantId, search.text) : undefined;
  const scanSearch = search && !searchIds ? search : undefined;
  const none: TracePage = { traces: [], next_cursor: null, searched_back_to: null, search_scanned: !!scanSearch };
  const seqRange = await seqRangeFor(tenantId, filters.since, filters.until);
  if (!seqRange) return none;
  const beforeSeq = options.cursor ? decodeCursor(options.cursor, ['number'])[0] : undefined;
  const floor = seqRange.min ?? 1;
  let maxSeq = Math.min(seqRange.max ?? Infinity, beforeSeq !== undefined ? beforeSeq - 1 : Infinity);
  let minSeq = seqRange.min;
  const windowed = !searchIds && !!(filters.decision || filters.apiKeyId || filters.shadowDiffers || scanSearch);
  if (windowed) {
    if (maxSeq === Infinity)
      maxSeq = (await db().evidence.findFirst({ where: await tenant, orderBy: { seq: 'desc' }, select: { seq: true } }))?.seq ?? 0;
    minSeq = Math.max(floor, maxSeq - (options.scanWindow ?? TRACE_SCAN_WINDOW) + 1);
  }
  if (maxSeq < floor) return none;
  const rows = await db().$queryRaw<Record<string, unknown>[]>(
    traceRowsQuery({
      tenantId,
      filters,
      minSeq,
      maxSeq: maxSeq === Infinity ? undefined : maxSeq,
      limit: options.limit,
      searchTraceIds: searchIds ?? undefined,
      scanSearch,
    }),
  );
  const page = rows.slice(0, options.limit);
  const lastRow = page[page.length - 1];
  let nextCursor = rows.length > options.limit && lastRow ? encodeCursor([num(lastRow.seq)]) : null;
  let searchedBackTo: string | null = null;
  if (!nextCursor && windowed && minSeq !== undefined && minSeq > floor) {
    nextCursor = encodeCursor([minSeq]);
    const edge = await db().evidence.findFirst({
      where: { ...(await tenant), seq: minSeq },
      select: { createdAt: true },
    });
    searchedBackTo = edge?.createdAt.toISOString() ?? null;
  }
  if (page.length === 0) return { ...none, next_cursor: nextCursor, searched_back_to: searchedBackTo };

  const traceIds = [...new Set(page.map((r) => String(r.traceId)))];
  const totals = new Map(
    (await db().$queryRaw<Record<string, unknown>[]>(traceTotalsQuery(tenantId, traceIds))).map((t) => [String(t.traceId), t]),
  );
  const edgeSeqs = [...totals.values()].flatMap((t) => [num(t.firstSeq), num(t.lastSeq)]);
  const edges = new Map(
    (
      await db().evidence.findMany({
        where: { ...(await tenant), seq: { in: edgeSeqs } },
        select: { seq: true, kind: true, decision: true, durationMs: true },
      })
    ).map((r) => [r.seq, r]),
  );
  const names = await apiKeyNames(
    tenantId,
    page.map((r) => (r.apiKeyId as string | null) ?? null),
  );

  const traces = page.map((row): TraceSummary => {
    const traceId = String(row.traceId);
    const total = totals.get(traceId);
    const first = total ? edges.get(num(total.firstSeq)) : undefined;
    const last = total ? edges.get(num(total.lastSeq)) : undefined;
    const firstAt = total ? toDate(total.firstAt).getTime() : toDate(row.createdAt).getTime();
    const lastAt = total ? toDate(total.lastAt).getTime() : firstAt;
    const apiKeyId = (row.apiKeyId as string | null) ?? null;
    const summary: TraceSummary = {
      trace_id: traceId,
      call_id: String(row.callId),
      seq: num(row.seq),
      kind: String(row.kind),
      started_at: toDate(row.createdAt).toISOString(),
      tool: String(row.tool),
      decision: String(row.decision),
      api_key_id: apiKeyId,
      api_key_name: apiKeyId ? (names.get(apiKeyId) ?? null) : null,
      contract_version: (row.contractVersion as string | null) ?? null,
      policy: row.policyId
        ? {
            id: String(row.policyId),
            version: (row.policyVersion as string | null) ?? null,
            rule: (row.policyRule as string | null) ?? null,
          }
        : null,
      shadow_differs: toBool(row.shadowDiffers),
      records: total ? num(total.records) : 1,
      last_kind: last?.kind ?? String(row.kind),
      last_decision: last?.decision ?? String(row.decision),
      duration_ms: round(lastAt - firstAt + (first?.durationMs ?? 0)),
      checks_ms: round(total ? num(total.checksMs) : 0),
      execution_ms: total ? nullableNum(total.executionMs) : null,
    };
    if (filters.shadowDiffers)
      summary.shadow = (parsePolicyEvidence(row.policy as string | null)?.shadow ?? []).map((s) => ({
        kind: s.kind,
        id: s.id,
        version: s.version,
        decision: s.decision,
        rule: s.rule,
        differs: s.differs,
      }));
    return summary;
  });
  return { traces, next_cursor: nextCursor, searched_back_to: searchedBackTo, search_scanned: !!scanSearch };
}

function round(ms: number): number {
  return Math.round(ms * 1000) / 1000;
}
