// npm run db:seed: migrates DATABASE_URL (default ./data/toolgate.db) and adds the demo tenant
// through the same function the first start uses (lib/seed/demo-tenant.ts). Run it again and
// it says the demo tenant exists.
import { migrateDatabase } from '../lib/db/migrate-database';
import { disconnectDb } from '../lib/db';
import { publicBaseUrl } from '../lib/env';
import { closeEvidenceWriter } from '../lib/evidence/record-evidence';
import { DEMO_TENANT_SLUG, demoTenantLines, seedDemoTenant } from '../lib/seed/demo-tenant';

try {
  const { provider, applied } = await migrateDatabase();
  if (applied.length > 0) console.log(`toolgate: ${provider} migrated (${applied.join(', ')})`);
  const seeded = await seedDemoTenant();
  if (seeded.created) for (const line of demoTenantLines(seeded, publicBaseUrl())) console.log(line);
  else console.log(`toolgate: the demo tenant "${DEMO_TENANT_SLUG}" exists; nothing seeded`);
} finally {
  await closeEvidenceWriter();
  await disconnectDb();
}
