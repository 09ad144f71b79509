import { randomBytes } from 'node:crypto';
import { createTenant } from '../tenants/create-tenant';
import { createApiKey } from '../auth/api-keys';
import { saveDocumentDraft } from '../documents/save-document-draft';
import { publishDocumentVersion } from '../documents/publish-document-version';
import type { ToolContract } from '../contracts/contract-schema';

/** A tenant with an agent key (validate) and an admin key, created through the app's services. */
export async function createTestTenant(options: { slug?: string; storeRawArguments?: boolean } = {}) {
  const tenant = await createTenant({
    slug: options.slug ?? `t-${randomBytes(4).toString('hex')}`,
    storeRawArguments: options.storeRawArguments,
  });
  const agent = await createApiKey({ tenantId: tenant.id, name: 'agent', scopes: ['validate'] });
  const admin = await createApiKey({ tenantId: tenant.id, name: 'admin', scopes: ['validate', 'admin'] });
  return { tenant, agentKey: agent.key, adminKey: admin.key, agentKeyId: agent.apiKey.id };
}

export async function publishContract(tenantId: string, document: ToolContract) {
  await saveDocumentDraft({ tenantId, kind: 'contract', document });
  return publishDocumentVersion({ tenantId, kind: 'contract', id: document.id, version: document.version, changeNote: 'test' });
}
