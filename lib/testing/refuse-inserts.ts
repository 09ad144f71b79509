import { db, dbProvider } from '../db';

/**
 * Makes the database refuse inserts into `table` whose new row matches `when` (SQL over
 * `NEW."column"`), as a failing write in the middle of a commit would: a trigger on either
 * database, so the whole transaction is rolled back. `allowInserts` takes it away again.
 */
export async function refuseInserts(table: string, when: string): Promise<void> {
  const name = triggerName(table);
  if (dbProvider() === 'postgresql') {
    await db().$executeRawUnsafe(
      `CREATE OR REPLACE FUNCTION ${name}() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN IF ${when} THEN RAISE EXCEPTION 'refused by the test'; END IF; RETURN NEW; END $$`,
    );
    await db().$executeRawUnsafe(`CREATE TRIGGER ${name} BEFORE INSERT ON "${table}" FOR EACH ROW EXECUTE FUNCTION ${name}()`);
  } else {
    await db().$executeRawUnsafe(
      `CREATE TRIGGER ${name} BEFORE INSERT ON "${table}" WHEN ${when} BEGIN SELECT RAISE(ABORT, 'refused by the test'); END`,
    );
  }
}

export async function allowInserts(table: string): Promise<void> {
  const name = triggerName(table);
  await db().$executeRawUnsafe(
    dbProvider() === 'postgresql' ? `DROP TRIGGER IF EXISTS ${name} ON "${table}"` : `DROP TRIGGER IF EXISTS ${name}`,
  );
}

const triggerName = (table: string) => `tg_test_refuse_${table.toLowerCase()}`;
