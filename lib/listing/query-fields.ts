import { z } from 'zod';

/**
 * The filters of the traces and violations lists, as the API reads them from the query string.
 * Every string is bounded; ids and names are matched exactly (each filter is an index range).
 */
const tool = z.string().min(1).max(128).describe('Only this tool (exact id).');
const decision = z
  .string()
  .regex(/^[a-z_]{1,32}$/)
  .describe('Only this decision: allow, deny, require_approval, transform, escalate (approval decisions: approved, denied).');
const apiKeyId = z.string().min(1).max(64).describe('Only calls made with this API key (its id).');
const since = z.iso.datetime({ offset: true }).describe('From this instant (inclusive), ISO-8601.');
const until = z.iso.datetime({ offset: true }).describe('Up to this instant (exclusive), ISO-8601.');
const cursor = z.string().min(1).max(256).describe('The `next_cursor` of the previous page.');

export const TracesQuerySchema = z
  .object({
    tool: tool.optional(),
    decision: decision.optional().describe("Only traces whose first record (the call's validate/pre, as a rule) has this decision."),
    api_key_id: apiKeyId.optional(),
    since: since.optional(),
    until: until.optional(),
    q: z.string().min(1).max(128).optional().describe('A call_id (exact), or a trace id or a prefix of one (at least 4 hex characters).'),
    shadow_differs: z
      .enum(['true', 'false'])
      .optional()
      .describe('`true`: list the records a shadow policy or contract version would have decided differently, with those shadow decisions.'),
    cursor: cursor.optional(),
    limit: z.coerce.number().int().min(1).max(200).default(50),
  })
  .strict();

export const ViolationFilterFields = {
  code: z.string().min(1).max(64).optional().describe('Only this error code.'),
  tool: tool.optional(),
  api_key_id: apiKeyId.optional(),
  decision: decision.optional(),
  since: since.optional(),
  until: until.optional(),
};

/** CSV exports stop here; narrow the time range for older rows. */
export const CSV_ROWS_MAX = 100_000;

export const ViolationsQuerySchema = z
  .object({
    ...ViolationFilterFields,
    cursor: cursor.optional(),
    limit: z.coerce.number().int().min(1).max(500).default(100),
    format: z
      .enum(['json', 'csv'])
      .default('json')
      .describe(`\`csv\`: every matching violation, newest first, as a CSV download (at most ${CSV_ROWS_MAX.toLocaleString('en-US')} rows; cursor and limit do not apply).`),
  })
  .strict();

export const ViolationStatsQuerySchema = z.object({ ...ViolationFilterFields }).strict();

/** A time range with defaults: until now, since `defaultDays` before until. */
export function timeRange(query: { since?: string; until?: string }, defaultDays: number, now = new Date()): { since: Date; until: Date } {
  const until = query.until ? new Date(query.until) : now;
  const since = query.since ? new Date(query.since) : new Date(until.getTime() - defaultDays * 86_400_000);
  return { since, until };
}

/** ISO strings from the query as dates. */
export function dates(query: { since?: string; until?: string }): { since?: Date; until?: Date } {
  return { ...(query.since ? { since: new Date(query.since) } : {}), ...(query.until ? { until: new Date(query.until) } : {}) };
}
