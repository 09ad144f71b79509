/**
 * How a time range splits between rollups and rows, so counts stay exact for any range: whole
 * days from day rollups (when asked), whole hours from hour rollups, and the partial hours at
 * either end from the rows themselves, on their (tenantId, createdAt) indexes.
 */
export interface TimeRange {
  since: Date;
  until: Date;
}

export interface RangePlan {
  /** Read from the rows: less than an hour at each end (or the whole range, within one hour). */
  rows: TimeRange[];
  hours: TimeRange[];
  days: TimeRange[];
}

const HOUR = 3_600_000;
const DAY = 86_400_000;
const floor = (t: number, step: number) => Math.floor(t / step) * step;
const ceil = (t: number, step: number) => Math.ceil(t / step) * step;
const range = (a: number, b: number): TimeRange[] => (a < b ? [{ since: new Date(a), until: new Date(b) }] : []);

export function planRange(since: Date, until: Date, options: { days?: boolean } = {}): RangePlan {
  const [a, b] = [since.getTime(), until.getTime()];
  const [h0, h1] = [ceil(a, HOUR), floor(b, HOUR)];
  if (h0 >= h1) return { rows: range(a, b), hours: [], days: [] };
  const rows = [...range(a, h0), ...range(h1, b)];
  const [d0, d1] = [ceil(h0, DAY), floor(h1, DAY)];
  if (!options.days || d0 >= d1) return { rows, hours: range(h0, h1), days: [] };
  return { rows, hours: [...range(h0, d0), ...range(d1, h1)], days: range(d0, d1) };
}

/**
 * A count up to instant `t`, as rollups plus rows: whole hours up to `anchor`, then `rows`
 * read from the rows and added (sign 1: [anchor, t)) or taken away (sign -1: [t, anchor)),
 * whichever reads less than half an hour of rows. A count over [a, b) is the count up to b
 * minus the count up to a.
 */
export interface Boundary {
  at: Date;
  anchor: Date;
  rows: TimeRange | null;
  sign: 1 | -1;
}

export function boundaryAt(t: Date): Boundary {
  const ms = t.getTime();
  const below = floor(ms, HOUR);
  if (below === ms) return { at: t, anchor: t, rows: null, sign: 1 };
  if (ms - below <= HOUR / 2) return { at: t, anchor: new Date(below), rows: { since: new Date(below), until: t }, sign: 1 };
  const above = below + HOUR;
  return { at: t, anchor: new Date(above), rows: { since: t, until: new Date(above) }, sign: -1 };
}
