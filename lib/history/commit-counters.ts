import type { EvidenceInput } from '../evidence/evidence-input';
import {
  counterSql,
  HistoryLedger,
  PUT_MANY_POSTGRES,
  SUMS_MANY_POSTGRES,
  toWindowSums,
  writeSteps,
  type StoredSums,
} from './history-ledger';
import type { CommittedWindow } from './window-cache';

/**
 * The counters' part of an evidence transaction over an async client (PostgreSQL's driver, or
 * Prisma's transaction on either database); SqliteEvidenceStore does the same synchronously.
 */
export type CounterQuery = (sql: string, params: unknown[]) => Promise<unknown[]>;

export interface HistoryAdmission {
  /** Per input, whether its history's claims and reads held (and it was counted). */
  admitted: boolean[];
  /** The windows checked, as they stand once the transaction commits. */
  windows: CommittedWindow[];
}

/** Checks and counts the inputs' histories in order; null when no input has one. */
export async function admitHistoryWith(
  query: CounterQuery,
  provider: 'sqlite' | 'postgresql',
  inputs: readonly EvidenceInput[],
): Promise<HistoryAdmission | null> {
  const ledgers = await loadHistoryLedgers(query, provider, inputs);
  if (!ledgers) return null;
  const admitted = inputs.map((input) => (ledgers.get(input.tenantId) as HistoryLedger).admit(input.history));
  await writeHistoryLedgers(query, provider, ledgers);
  return { admitted, windows: committedWindows(ledgers) };
}

/** Per tenant, a ledger loaded with the windows the inputs' histories check; null when no input has a history. */
export async function loadHistoryLedgers(
  query: CounterQuery,
  provider: 'sqlite' | 'postgresql',
  inputs: readonly EvidenceInput[],
): Promise<Map<string, HistoryLedger> | null> {
  if (!inputs.some((i) => i.history)) return null;
  const sql = counterSql(provider);
  const ledgers = new Map<string, HistoryLedger>();
  if (provider === 'postgresql') await lockSeries(query, inputs);
  for (const tenantId of new Set(inputs.map((i) => i.tenantId))) {
    const ledger = new HistoryLedger();
    const keys = HistoryLedger.keysOf(inputs.filter((i) => i.tenantId === tenantId).map((i) => i.history));
    if (provider === 'postgresql') {
      // One round trip for all the tenant's windows, their series and scopes locked (lockSeries).
      const rows = (await query(SUMS_MANY_POSTGRES, [
        tenantId,
        keys.map((k) => k.series),
        keys.map((k) => k.scope),
        keys.map((k) => k.from),
      ])) as (StoredSums & { i: unknown })[];
      const found = new Map(rows.map((row) => [Number(row.i) - 1, row]));
      keys.forEach((key, i) => ledger.load(key, toWindowSums(found.get(i))));
    } else
      for (const key of keys) {
        const [sums] = await query(sql.sums.sql, sql.sums.args([tenantId, key.series, key.scope, key.from]));
        ledger.load(key, toWindowSums(sums as StoredSums | undefined));
      }
    ledgers.set(tenantId, ledger);
  }
  return ledgers;
}

/** Adds what the ledgers counted to the counter rows. */
export async function writeHistoryLedgers(
  query: CounterQuery,
  provider: 'sqlite' | 'postgresql',
  ledgers: ReadonlyMap<string, HistoryLedger>,
): Promise<void> {
  const sql = counterSql(provider);
  const puts: unknown[][] = [];
  for (const [tenantId, ledger] of ledgers) {
    for (const w of ledger.writes())
      for (const { step, values } of writeSteps(tenantId, w)) {
        if (step === 'put' && provider === 'postgresql') puts.push(values);
        else await query(sql[step].sql, sql[step].args(values));
      }
  }
  // PostgreSQL: every put of the transaction in one statement (distinct rows, so one upsert each).
  if (puts.length > 0)
    await query(
      PUT_MANY_POSTGRES,
      Array.from({ length: 9 }, (_, column) => puts.map((values) => values[column])),
    );
}

export function committedWindows(ledgers: ReadonlyMap<string, HistoryLedger>): CommittedWindow[] {
  return [...ledgers].flatMap(([tenantId, ledger]) => ledger.windows().map((w) => ({ tenantId, ...w })));
}

/**
 * PostgreSQL: a transaction-scoped advisory lock per tenant, series and scope the inputs count
 * in, taken in sorted order (two commits cannot deadlock on them). Commits of one tenant run side
 * by side in evidence lanes, and the ledger writes totals it read: only commits that count in the
 * same series and scope wait for each other, until the first commits. SQLite has one writer.
 */
async function lockSeries(query: CounterQuery, inputs: readonly EvidenceInput[]): Promise<void> {
  const keys = new Set<string>();
  for (const tenantId of new Set(inputs.map((i) => i.tenantId)))
    for (const key of HistoryLedger.keysOf(inputs.filter((i) => i.tenantId === tenantId).map((i) => i.history)))
      keys.add(`${tenantId}\n${key.series}\n${key.scope}`);
  if (keys.size === 0) return;
  // unnest yields the array in order, so the locks are taken in this order.
  await query(`SELECT count(pg_advisory_xact_lock(hashtextextended(k, 0)))::int AS n FROM unnest($1::text[]) AS k`, [[...keys].sort()]);
}
