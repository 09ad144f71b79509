// Prepares a benchmark database through the app's own services: migrations, the first-start
// tenant with the operator key (TOOLGATE_INIT_*), and the orders.lookup contract published.
import { migrateDatabase } from '../../lib/db/migrate-database';
import { bootstrap } from '../../lib/tenants/bootstrap';
import { saveContractDraft } from '../../lib/contracts/save-contract-draft';
import { publishContractVersion } from '../../lib/contracts/publish-contract-version';
import { lookupOrderContract } from '../../lib/contracts/examples';
import { db, disconnectDb } from '../../lib/db';

await migrateDatabase();
await bootstrap();
const tenant = await db().tenant.findUniqueOrThrow({ where: { slug: process.env.TOOLGATE_INIT_TENANT ?? 'bench' } });
await saveContractDraft({ tenantId: tenant.id, document: lookupOrderContract });
await publishContractVersion({ tenantId: tenant.id, tool: lookupOrderContract.id, version: lookupOrderContract.version });
await disconnectDb();
