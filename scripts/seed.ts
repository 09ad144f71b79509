// npm run db:seed: migrates DATABASE_URL (default ./data/toolgate.db) and adds the demo tenant
// through the same function the first start uses (lib/seed/demo-tenant.ts). Run it again and
// it says the demo tenant exists.
import { migrateDatabase } from '../lib/db/migrate-database';
import { disconnectDb } from '../lib/db';
import { publicBaseUrl } from '../lib/env';
import { closeEvidenceWriter } from '../lib/evidence/record-evidence';
import { DEMO_TENANT_SLUG, DemoSeedIncompleteError, demoTenantLines, seedDemoTenant } from '../lib/seed/demo-tenant';

try {
  const { provider, applied } = await migrateDatabase();
  if (applied.length > 0) console.log(`toolgate: ${provider} migrated (${applied.join(', ')})`);
  let seeded;
  try {
    seeded = await seedDemoTenant();
  } catch (error) {
    if (!(error instanceof DemoSeedIncompleteError)) throw error;
    // Its sign-in and key exist and are shown only here.
    console.error(`toolgate: ${error.message}`);
    for (const line of demoTenantLines(error.seed, publicBaseUrl())) console.log(line);
    process.exitCode = 1;
    seeded = null;
  }
  if (!seeded) {
    // Reported above.
  } else if (seeded.created) for (const line of demoTenantLines(seeded, publicBaseUrl())) console.log(line);
  else console.log(`toolgate: the demo tenant "${DEMO_TENANT_SLUG}" exists; nothing seeded`);
} finally {
  await closeEvidenceWriter();
  await disconnectDb();
}
