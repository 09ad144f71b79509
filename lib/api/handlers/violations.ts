import { z } from 'zod';
import { defineRoute } from '../define-route';
import { AppError } from '../../errors';
import { dates, timeRange } from '../../listing/query-fields';
import { listViolations } from '../../violations/list-violations';
import { CSV_ROWS_MAX, ViolationsQuerySchema, ViolationStatsQuerySchema } from '../../violations/violations-query-schemas';
import { streamViolationsCsv } from '../../violations/stream-violations-csv';
import { getViolationStats, HOURLY_RANGE_MAX_MS } from '../../violations/get-violation-stats';
import type { ViolationKind } from '../../violations/violation-kinds';

const nullableString = z.string().nullable();

const ViolationListSchema = z
  .object({
    violations: z.array(
      z
        .object({
          id: z.string(),
          code: z.string(),
          type: z.string(),
          tool: z.string(),
          api_key_id: nullableString,
          api_key_name: nullableString,
          path: nullableString,
          decision: z.string(),
          created_at: z.string(),
          trace_id: z.string(),
          call_id: z.string(),
          message: nullableString,
        })
        .strict(),
    ),
    next_cursor: nullableString,
  })
  .strict();

const violationFilters = (query: { code?: string; tool?: string; api_key_id?: string; decision?: string; kind?: ViolationKind }) => ({
  code: query.code,
  tool: query.tool,
  apiKeyId: query.api_key_id,
  decision: query.decision,
  kind: query.kind,
});

/** GET /api/v1/violations — errors over time, filterable by code, tool, key, decision, kind and time; JSON pages or a CSV download. */
export const listViolationsHandler = defineRoute({
  auth: { apiKey: 'admin', session: 'read' },
  query: ViolationsQuerySchema,
  response: ViolationListSchema,
  otherMediaTypes: { 'text/csv': z.string().describe(`With format=csv: the violations as CSV, at most ${CSV_ROWS_MAX} rows.`) },
  handler: async ({ caller, query }) => {
    const filters = { ...violationFilters(query), ...dates(query) };
    if (query.format === 'csv') {
      const stream = await streamViolationsCsv({ tenantId: caller.tenantId, filters, max: CSV_ROWS_MAX });
      const stamp = new Date().toISOString().slice(0, 19).replace(/\D/g, '');
      return new Response(stream, {
        headers: {
          'content-type': 'text/csv; charset=utf-8',
          'content-disposition': `attachment; filename="violations-${stamp}.csv"`,
          'cache-control': 'no-store',
          'x-content-type-options': 'nosniff',
        },
      });
    }
    return { body: await listViolations({ tenantId: caller.tenantId, filters, cursor: query.cursor, limit: query.limit }) };
  },
});

const count = z.number().int().min(0);
const ViolationStatsSchema = z
  .object({
    since: z.string(),
    until: z.string(),
    bucket: z.enum(['hour', 'day']),
    codes: z.array(z.string()),
    buckets: z.array(z.object({ start: z.string(), total: count, counts: z.record(z.string(), count) }).strict()),
    total: count,
    top_codes: z.array(z.object({ code: z.string(), count }).strict()),
    top_tools: z.array(z.object({ tool: z.string(), count }).strict()),
    top_keys: z.array(z.object({ api_key_id: nullableString, api_key_name: nullableString, count }).strict()),
  })
  .strict();

/** The longest range one chart covers (day buckets). */
const STATS_RANGE_MAX_DAYS = 366;

/** GET /api/v1/violations/stats — counts per code over time (hour or day buckets, chosen or by default) and the top codes, tools and keys. */
export const violationStatsHandler = defineRoute({
  auth: { apiKey: 'admin', session: 'read' },
  query: ViolationStatsQuerySchema,
  response: ViolationStatsSchema,
  handler: async ({ caller, query }) => {
    const range = timeRange(query, 7);
    if (range.since.getTime() >= range.until.getTime())
      throw new AppError('bad_request', 'Invalid query: since must be before until', {
        issues: [{ path: 'since', message: 'must be before until' }],
      });
    if (range.until.getTime() - range.since.getTime() > STATS_RANGE_MAX_DAYS * 86_400_000) {
      throw new AppError('bad_request', `Invalid query: a chart covers at most ${STATS_RANGE_MAX_DAYS} days`, {
        issues: [{ path: 'since', message: `at most ${STATS_RANGE_MAX_DAYS} days before until` }],
      });
    }
    if (query.bucket === 'hour' && range.until.getTime() - range.since.getTime() > HOURLY_RANGE_MAX_MS) {
      throw new AppError('bad_request', `Invalid query: hour bars cover at most ${HOURLY_RANGE_MAX_MS / 86_400_000} days`, {
        issues: [{ path: 'bucket', message: `hour needs a range of at most ${HOURLY_RANGE_MAX_MS / 86_400_000} days` }],
      });
    }
    return {
      body: await getViolationStats({ tenantId: caller.tenantId, filters: { ...violationFilters(query), ...range }, bucket: query.bucket }),
    };
  },
});
