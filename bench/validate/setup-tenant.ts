// Prepares a benchmark database through the app's own services: migrations, the first-start
// tenant with the operator key (TOOLGATE_INIT_*), and the orders.lookup contract published.
import { migrateDatabase } from '../../lib/db/migrate-database';
import { bootstrap } from '../../lib/tenants/bootstrap';
import { saveDocumentDraft } from '../../lib/documents/save-document-draft';
import { publishDocumentVersion } from '../../lib/documents/publish-document-version';
import { lookupOrderContract } from '../../lib/contracts/examples';
import { db, disconnectDb } from '../../lib/db';

await migrateDatabase();
await bootstrap();
const tenant = await db().tenant.findUniqueOrThrow({ where: { slug: process.env.TOOLGATE_INIT_TENANT ?? 'bench' } });
await saveDocumentDraft({ tenantId: tenant.id, kind: 'contract', document: lookupOrderContract });
await publishDocumentVersion({ tenantId: tenant.id, kind: 'contract', id: lookupOrderContract.id, version: lookupOrderContract.version });
await disconnectDb();
