import { z } from 'zod';

/**
 * The filters the traces and violations lists share, as the API reads them from the query
 * string. Every string is bounded; ids and names are matched exactly (each filter is an index
 * range).
 */
export const ListQueryFields = {
  tool: z.string().min(1).max(128).describe('Only this tool (exact id).'),
  decision: z
    .string()
    .regex(/^[a-z_]{1,32}$/)
    .describe('Only this decision: allow, deny, require_approval, transform, escalate (approval decisions: approved, denied).'),
  apiKeyId: z.string().min(1).max(64).describe('Only calls made with this API key (its id).'),
  since: z.iso.datetime({ offset: true }).describe('From this instant (inclusive), ISO-8601.'),
  until: z.iso.datetime({ offset: true }).describe('Up to this instant (exclusive), ISO-8601.'),
  cursor: z.string().min(1).max(256).describe('The `next_cursor` of the previous page.'),
};

/**
 * A whole number in the query string, in decimal digits and nothing else. `z.coerce.number()`
 * read `limit=0x10` as 16, `1e1` as 10, ` 5` and `+5` as 5: pages of a size nobody wrote.
 */
export function wholeNumberParam(min: number, max: number) {
  return z
    .string()
    .regex(/^[0-9]{1,10}$/, 'must be a whole number in decimal digits')
    .transform(Number)
    .pipe(z.number().int().min(min).max(max));
}

/**
 * No record is older than this, and PostgreSQL has no year 0: a range reaching before it
 * (`since=0000-01-01T00:00:00Z`, or a default `since` 30 days before an `until` in year 1)
 * failed the query there (22008), which read as the database being down (503). Instants before
 * it are read as it.
 */
export const EARLIEST_INSTANT = new Date('1970-01-01T00:00:00Z');
export const notBeforeEarliest = (date: Date): Date => (date < EARLIEST_INSTANT ? EARLIEST_INSTANT : date);

/** A time range with defaults: until now, since `defaultDays` before until. */
export function timeRange(query: { since?: string; until?: string }, defaultDays: number, now = new Date()): { since: Date; until: Date } {
  const until = query.until ? new Date(query.until) : now;
  const since = query.since ? new Date(query.since) : new Date(until.getTime() - defaultDays * 86_400_000);
  return { since: notBeforeEarliest(since), until: notBeforeEarliest(until) };
}

/** ISO strings from the query as dates. */
export function dates(query: { since?: string; until?: string }): { since?: Date; until?: Date } {
  return {
    ...(query.since ? { since: notBeforeEarliest(new Date(query.since)) } : {}),
    ...(query.until ? { until: notBeforeEarliest(new Date(query.until)) } : {}),
  };
}
