/**
 * The traces and violations pages keep their filters in the URL, so a filtered view is a link
 * someone can share. This reads those search parameters (strings from anywhere) into bounded,
 * checked values; a bad value is reported and ignored, never passed to a query.
 */
import { notBeforeEarliest } from './query-fields';

export type SearchParams = Record<string, string | string[] | undefined>;

export const RANGES = { '1h': 3_600_000, '24h': 86_400_000, '7d': 7 * 86_400_000, '30d': 30 * 86_400_000 } as const;
export type RangeKey = keyof typeof RANGES | 'all' | 'custom';

export interface PageFilters {
  /** The raw values to put back into the form and into links (empty ones left out). */
  values: Record<string, string>;
  since?: Date;
  until?: Date;
  range: RangeKey;
  cursor?: string;
  problems: string[];
}

const FIELD_MAX = 128;
const NAME = /^[\w.:*@/-]{1,128}$/;
const DECISION = /^[a-z_]{1,32}$/;
// An <input type="datetime-local"> value (read as UTC), or a full ISO-8601 instant.
const DATETIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2})?$/;

export function first(params: SearchParams, key: string): string | undefined {
  const value = params[key];
  const text = (Array.isArray(value) ? value[0] : value)?.trim();
  return text ? text.slice(0, 512) : undefined;
}

/** The text filters a page knows, each checked against its shape. */
export function readPageFilters(
  params: SearchParams,
  options: { fields: Record<string, 'name' | 'decision' | 'search' | 'flag'>; defaultRange: RangeKey; now?: Date },
): PageFilters {
  const values: Record<string, string> = {};
  const problems: string[] = [];
  for (const [key, kind] of Object.entries(options.fields)) {
    const value = first(params, key);
    if (value === undefined) continue;
    const ok =
      kind === 'name'
        ? NAME.test(value)
        : kind === 'decision'
          ? DECISION.test(value)
          : kind === 'flag'
            ? value === '1'
            : value.length <= FIELD_MAX && !value.includes('\0');
    if (ok) values[key] = value;
    else problems.push(`Ignored the ${key} filter: “${value.slice(0, 40)}” is not a valid value.`);
  }
  const now = options.now ?? new Date();
  const rawSince = first(params, 'since');
  const rawUntil = first(params, 'until');
  let range = (first(params, 'range') ?? (rawSince || rawUntil ? 'custom' : options.defaultRange)) as RangeKey;
  // Own keys only: `in` also finds `toString` and `constructor`, whose "range" was NaN ms.
  if (!Object.hasOwn(RANGES, range) && range !== 'all' && range !== 'custom') {
    problems.push(`Ignored the range “${String(range).slice(0, 20)}”.`);
    range = options.defaultRange;
  }
  let since: Date | undefined;
  let until: Date | undefined;
  if (range === 'custom') {
    since = readInstant(rawSince, 'since', problems);
    until = readInstant(rawUntil, 'until', problems);
    if (since && until && since.getTime() >= until.getTime()) {
      problems.push('Ignored the time range: “from” must be before “to”.');
      since = undefined;
      until = undefined;
    }
    // Put back as the UTC wall-clock time they stand for: the form's fields are UTC, and an
    // instant given with an offset showed its own wall-clock time there (submitting the form
    // again moved the range by the offset).
    if (since) values.since = utcWallClock(since);
    if (until) values.until = utcWallClock(until);
    if (since || until) values.range = 'custom';
  } else if (range !== 'all') {
    since = new Date(now.getTime() - RANGES[range]);
    values.range = range;
  } else {
    values.range = 'all';
  }
  const cursor = first(params, 'cursor');
  return { values, since, until, range, cursor: cursor && /^[\w-]{1,256}$/.test(cursor) ? cursor : undefined, problems };
}

/** `2026-12-05T04:30:00` (seconds kept, milliseconds when any): read back as UTC by readInstant. */
const utcWallClock = (date: Date): string => date.toISOString().replace(/(\.000)?Z$/, '');

function readInstant(raw: string | undefined, name: string, problems: string[]): Date | undefined {
  if (!raw) return undefined;
  const date = DATETIME.test(raw) ? new Date(/(Z|[+-]\d{2}:\d{2})$/.test(raw) ? raw : `${raw}Z`) : new Date(NaN);
  if (Number.isNaN(date.getTime())) {
    problems.push(`Ignored “${name}”: “${raw.slice(0, 40)}” is not a date and time.`);
    return undefined;
  }
  return notBeforeEarliest(date);
}

/** A link to the same page with some values changed (undefined or '' removes one). */
export function pageHref(path: string, values: Record<string, string>, changes: Record<string, string | undefined> = {}): string {
  const merged: Record<string, string | undefined> = { ...values, ...changes };
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries(merged)) if (value) query.set(key, value);
  const text = query.toString();
  return text ? `${path}?${text}` : path;
}
