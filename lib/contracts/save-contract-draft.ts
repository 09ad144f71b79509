import { db } from '../db';
import { AppError } from '../errors';
import { ToolContractSchema, type ToolContract } from './contract-schema';
import { canonicalJson, sha256Hex } from './canonical-json';

/**
 * Creates or replaces the draft of one contract version. Drafts are mutable; a version that is
 * already published is immutable, so saving over it is a conflict (bump the version instead).
 */
export async function saveContractDraft(options: { tenantId: string; document: unknown; createdById?: string }) {
  const parsed = ToolContractSchema.safeParse(options.document);
  if (!parsed.success) {
    const problems = parsed.error.issues.slice(0, 50).map((issue) => ({ code: 'CONTRACT_SCHEMA_INVALID', path: issue.path.map(String).join('.') || '(root)', message: issue.message }));
    throw new AppError('contract_invalid', `The contract document is invalid: ${problems[0]?.path}: ${problems[0]?.message}`, { problems });
  }
  const document: ToolContract = parsed.data;
  const text = canonicalJson(document);
  const contentHash = sha256Hex(text);

  return db().$transaction(async (tx) => {
    const contract = await tx.contract.upsert({
      where: { tenantId_tool: { tenantId: options.tenantId, tool: document.id } },
      create: { tenantId: options.tenantId, tool: document.id, owner: document.owner, description: document.description },
      update: {},
    });
    const existing = await tx.contractVersion.findUnique({ where: { contractId_version: { contractId: contract.id, version: document.version } } });
    if (existing && existing.status !== 'draft') {
      throw new AppError('conflict', `${document.id}@${document.version} is already ${existing.status} and cannot change; save it as a new version.`, { tool: document.id, version: document.version, status: existing.status });
    }
    const version = existing
      ? await tx.contractVersion.update({ where: { id: existing.id }, data: { document: text, contentHash, createdById: options.createdById ?? existing.createdById } })
      : await tx.contractVersion.create({
          data: { tenantId: options.tenantId, contractId: contract.id, version: document.version, status: 'draft', document: text, contentHash, createdById: options.createdById ?? null },
        });
    return { tool: document.id, version: version.version, status: version.status, contentHash: version.contentHash, created: !existing };
  });
}
