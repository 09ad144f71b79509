// npm run db:migrate: applies committed migrations to DATABASE_URL (default ./data/toolgate.db).
import { migrateDatabase } from '../lib/db/migrate-database';

const { provider, applied } = await migrateDatabase();
console.log(applied.length ? `${provider}: applied ${applied.join(', ')}` : `${provider}: already up to date`);
