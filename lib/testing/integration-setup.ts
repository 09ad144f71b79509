// Runs before each integration test file: a fresh database of the provider under test
// (TEST_DB_PROVIDER), migrated with the committed migrations, and the env pointed at it.
// PostgreSQL is required, not optional: if it is unreachable the file fails, never skips.
import { afterAll } from 'vitest';
import { createScratchDatabase } from '../db/scratch-database';
import { migrateDatabase } from '../db/migrate-database';
import { disconnectDb } from '../db';
import { resetEnvForTests } from '../env';
import { resetAuthForTests } from '../auth/auth';
import { resetInstanceSecretForTests } from '../auth/instance-secret';
import { resetChangeFeedForTests } from '../cache/change-feed';
import { closeEvidenceWriter } from '../evidence/record-evidence';
import type { DatabaseProvider } from '../db/database-url';

const provider = (process.env.TEST_DB_PROVIDER ?? 'sqlite') as DatabaseProvider;
const scratch = await createScratchDatabase(provider, 'test');
await migrateDatabase(scratch.target.url);

process.env.DATABASE_URL = scratch.target.url;
process.env.TOOLGATE_SECRET = 'test-secret-that-is-long-enough-0123456789';
process.env.TOOLGATE_VALIDATE_RESPONSES = '1';
process.env.TOOLGATE_PUBLIC_URL = 'http://localhost:3000';
resetEnvForTests();
resetAuthForTests();
resetInstanceSecretForTests();

afterAll(async () => {
  resetChangeFeedForTests();
  await closeEvidenceWriter();
  await disconnectDb();
  await scratch.drop();
});
