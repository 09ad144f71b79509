import { parseDatabaseUrl } from './database-url';
import { applyMigrations } from './schema-engine';

/** Applies committed migrations to DATABASE_URL (or the given URL). Safe to run on every start. */
export async function migrateDatabase(url = process.env.DATABASE_URL): Promise<{ provider: string; applied: string[] }> {
  const target = parseDatabaseUrl(url);
  const applied = await applyMigrations(target);
  return { provider: target.provider, applied };
}
