// npm run db:migrate: applies committed migrations to DATABASE_URL (default ./data/toolgate.db).
import { DatabaseStartError, migrateDatabase } from '../lib/db/migrate-database';

try {
  const { provider, applied } = await migrateDatabase();
  console.log(applied.length ? `${provider}: applied ${applied.join(', ')}` : `${provider}: already up to date`);
} catch (error) {
  // The operator's to fix: the cause in one line, as npm start says it.
  if (!(error instanceof DatabaseStartError)) throw error;
  console.error(`toolgate: ${error.message}`);
  process.exit(1);
}
