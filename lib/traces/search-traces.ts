import { db, dbProvider } from '../db';
import { traceIdFor } from '../evidence/trace-id';
import { sql, type Sql } from '../db/sql';
import { byTenantKey } from '../evidence/tenant-key';

/** The longest search text taken (the API refuses longer, the page cuts it). */
export const TRACE_SEARCH_MAX = 128;

/**
 * `prefix`: call ids and trace ids starting with the text, found through indexes whatever the
 * history's size. `contains`: the text anywhere in either; no index can serve that, so it is
 * a condition on the records a listing walks, one scan window at a time (TRACE_SCAN_WINDOW).
 */
export type TraceSearchMatch = 'prefix' | 'contains';

export interface TraceSearch {
  text: string;
  match: TraceSearchMatch;
}

/** A prefix naming more traces than this is searched like `contains`: a window at a time, newest first. */
export const SEARCH_TRACES_MAX = 200;
/** Index entries read per prefix: a trace has a few records (pre, post, an approval's decision). */
const SEARCH_ROWS_MAX = 1000;

/** Trace ids are lowercase hex: what a trace id or a prefix of one looks like. */
const HEX = /^[0-9a-f]{1,32}$/;
/** Above every character: the upper end of "starts with" as a range of the index. */
const MAX_CHAR = '\u{10FFFF}';

/** Records whose trace id starts with a hex prefix: a range of the (tenantKey, traceId, seq) index. */
export function tracePrefixQuery(tenantId: string, prefix: string): Sql {
  // Every id starting with the prefix sorts below prefix + "g" (ids are [0-9a-f]).
  return sql`SELECT "traceId" FROM "Evidence" WHERE ${byTenantKey(tenantId)} AND "traceId" >= ${prefix} AND "traceId" < ${`${prefix}g`} LIMIT ${SEARCH_ROWS_MAX}`;
}

/**
 * Records whose call_id starts with a prefix: a range of the (tenantKey, callId) index. Call ids
 * are the agent's, any text, so the range must compare bytes: SQLite's default collation does;
 * on PostgreSQL the pattern operators do, served by that index's text_pattern_ops (a LIKE
 * 'x%' would need a constant pattern to plan a range, and the default operators follow the
 * database's collation, under which a range is not a prefix).
 */
export function callPrefixQuery(tenantId: string, prefix: string): Sql {
  const upper = `${prefix}${MAX_CHAR}`;
  const range =
    dbProvider() === 'postgresql'
      ? sql`"callId" ~>=~ ${prefix} AND "callId" ~<~ ${upper}`
      : sql`"callId" >= ${prefix} AND "callId" < ${upper}`;
  return sql`SELECT "traceId" FROM "Evidence" WHERE ${byTenantKey(tenantId)} AND ${range} LIMIT ${SEARCH_ROWS_MAX}`;
}

/**
 * The traces a prefix search names, through indexes only: its exact call_id (a call_id maps to
 * one trace id, lib/evidence/trace-id.ts), call ids starting with it, and trace ids starting
 * with it. Null when it names more than SEARCH_TRACES_MAX traces: then the listing walks a
 * window with `searchCondition` instead, which finds the newest matches first. Resolved to a
 * list first: an OR of these in one statement would make SQLite walk the tenant's records.
 */
export async function searchTraceIds(tenantId: string, text: string): Promise<string[] | null> {
  const ids = new Set([traceIdFor(tenantId, text)]);
  const queries = [callPrefixQuery(tenantId, text)];
  const hex = text.toLowerCase();
  if (HEX.test(hex)) queries.push(tracePrefixQuery(tenantId, hex));
  for (const query of queries) {
    const rows = await db().$queryRaw<{ traceId: string }[]>(query);
    if (rows.length >= SEARCH_ROWS_MAX) return null;
    for (const row of rows) ids.add(row.traceId);
    if (ids.size > SEARCH_TRACES_MAX + 1) return null;
  }
  return [...ids];
}

/**
 * The search as a condition on a listed record `e` (its call_id and trace id are its trace's).
 * Functions, not LIKE: nothing the user types is a wildcard, and the match is case-sensitive on
 * both databases (SQLite's LIKE ignores ASCII case). Trace ids are matched in lowercase.
 */
export function searchCondition(search: TraceSearch): Sql {
  const text = sql`CAST(${search.text} AS TEXT)`;
  const hex = search.text.toLowerCase();
  const traceText = sql`CAST(${hex} AS TEXT)`;
  const matches = (column: Sql, value: Sql) =>
    search.match === 'prefix'
      ? sql`substr(${column}, 1, length(${value})) = ${value}`
      : dbProvider() === 'postgresql'
        ? sql`strpos(${column}, ${value}) > 0`
        : sql`instr(${column}, ${value}) > 0`;
  const call = matches(sql`e."callId"`, text);
  return HEX.test(hex) ? sql`(${call} OR ${matches(sql`e."traceId"`, traceText)})` : call;
}
