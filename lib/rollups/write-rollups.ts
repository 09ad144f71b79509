import type Database from 'better-sqlite3';
import type { EvidenceRecord, ViolationRecord } from '../evidence/chain-records';
import {
  evidenceRollupValues,
  rollupDeltas,
  rollupUpserts,
  SQLITE_ROLLUP_UPSERT,
  violationRollupValues,
  type RollupProvider,
} from './rollup-rows';

/**
 * Adds a batch to the rollups, inside the caller's transaction (each commit path has its own
 * way of running statements). A failed batch rolls its rollups back with its evidence.
 */

/** The SQLite writer's: statements prepared once per connection, run per distinct key. */
export function sqliteRollupWriter(connection: Database.Database): (rows: EvidenceRecord[], violations: ViolationRecord[]) => void {
  const evidence = connection.prepare(SQLITE_ROLLUP_UPSERT.evidence);
  const violation = connection.prepare(SQLITE_ROLLUP_UPSERT.violation);
  return (rows, violations) => {
    const deltas = rollupDeltas(rows, violations);
    // Spread, not one array argument: see the evidence insert in lib/evidence/raw-evidence-store.ts.
    for (const d of deltas.evidence) evidence.run(...evidenceRollupValues(d, 'sqlite'));
    for (const d of deltas.violations) violation.run(...violationRollupValues(d, 'sqlite'));
  };
}

/** The PostgreSQL raw store's and Prisma's: one multi-row upsert per table and batch. */
export async function writeRollups(
  run: (sql: string, params: unknown[]) => Promise<unknown>,
  provider: RollupProvider,
  rows: EvidenceRecord[],
  violations: ViolationRecord[],
): Promise<void> {
  for (const statement of rollupUpserts(provider, rollupDeltas(rows, violations))) await run(statement.sql, statement.params);
}
