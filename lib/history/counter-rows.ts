/**
 * Counter rows of some series and scopes held in memory: what a call's history view reads, what
 * the evidence commit checks a batch against (adding each admitted call before the next is
 * checked), and all there is of a simulated history.
 */
export interface CounterRow {
  bucket: number;
  count: number;
  total: number;
  /** Milliseconds since the epoch of the newest call counted in the bucket. */
  lastAt: number;
}

export interface WindowSums {
  count: number;
  total: number;
  /** The newest call in the window, ms since the epoch; 0 when there is none. */
  lastAt: number;
}

export const rowsKey = (series: string, scope: string) => `${series}|${scope}`;

/** What a history view reads: the sums of a window, and the rows behind it (to tell when a limit frees up). */
export interface CounterSource {
  sums(series: string, scope: string, fromBucket: number): WindowSums;
  get(series: string, scope: string): readonly CounterRow[];
}

export const NO_CALLS: WindowSums = Object.freeze({ count: 0, total: 0, lastAt: 0 });

/**
 * A call's counters as read on the request path: each window's sums, added up by the database
 * (a handful of numbers instead of up to 61 rows per window), and the rows of a window only
 * where they are needed (a limit already past, for its retry time).
 */
export class WindowCounters implements CounterSource {
  private readonly windows = new Map<string, WindowSums>();
  private readonly rows = new CounterRows();

  setSums(series: string, scope: string, fromBucket: number, sums: WindowSums): void {
    this.windows.set(`${series}|${scope}|${fromBucket}`, sums);
  }

  loadRows(series: string, scope: string, rows: readonly CounterRow[]): void {
    this.rows.load(series, scope, rows);
  }

  sums(series: string, scope: string, fromBucket: number): WindowSums {
    return this.windows.get(`${series}|${scope}|${fromBucket}`) ?? NO_CALLS;
  }

  get(series: string, scope: string): readonly CounterRow[] {
    return this.rows.get(series, scope);
  }
}

export class CounterRows implements CounterSource {
  private readonly rows = new Map<string, CounterRow[]>();

  /** Rows of one series and scope, oldest bucket first. */
  get(series: string, scope: string): readonly CounterRow[] {
    return this.rows.get(rowsKey(series, scope)) ?? [];
  }

  /** Puts a row as loaded from the database (replacing one of the same bucket). */
  put(series: string, scope: string, row: CounterRow): void {
    this.insert(this.list(series, scope), row);
  }

  /**
   * Puts the rows of one series and scope as read, oldest bucket first: one lookup for them
   * all, each appended (a window reads up to 61 rows, on the request path of every call).
   */
  load(series: string, scope: string, rows: readonly CounterRow[]): void {
    const list = this.list(series, scope);
    for (const row of rows) {
      const last = list[list.length - 1];
      if (!last || last.bucket < row.bucket) list.push({ ...row });
      else this.insert(list, row);
    }
  }

  private insert(list: CounterRow[], row: CounterRow): void {
    const at = list.findIndex((r) => r.bucket >= row.bucket);
    if (at === -1) list.push({ ...row });
    else if (list[at]?.bucket === row.bucket) list[at] = { ...row };
    else list.splice(at, 0, { ...row });
  }

  add(series: string, scope: string, bucket: number, count: number, total: number, at: number): void {
    const list = this.list(series, scope);
    const existing = list.find((r) => r.bucket === bucket);
    if (existing) {
      existing.count += count;
      existing.total += total;
      existing.lastAt = Math.max(existing.lastAt, at);
    } else this.put(series, scope, { bucket, count, total, lastAt: at });
  }

  sums(series: string, scope: string, fromBucket: number): WindowSums {
    let count = 0;
    let total = 0;
    let lastAt = 0;
    for (const row of this.get(series, scope)) {
      if (row.bucket < fromBucket) continue;
      count += row.count;
      total += row.total;
      if (row.lastAt > lastAt) lastAt = row.lastAt;
    }
    return { count, total, lastAt };
  }

  private list(series: string, scope: string): CounterRow[] {
    const key = rowsKey(series, scope);
    let list = this.rows.get(key);
    if (!list) {
      list = [];
      this.rows.set(key, list);
    }
    return list;
  }
}
