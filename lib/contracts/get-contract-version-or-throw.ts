import { db } from '../db';
import { NotFoundError } from '../errors';
import type { ToolContract } from './contract-schema';

export async function getContractVersionOrThrow(options: { tenantId: string; tool: string; version: string }) {
  const row = await db().contractVersion.findFirst({
    where: { tenantId: options.tenantId, version: options.version, contract: { tool: options.tool } },
  });
  if (!row) throw new NotFoundError('contract version', `${options.tool}@${options.version}`);
  return {
    tool: options.tool,
    version: row.version,
    status: row.status,
    contentHash: row.contentHash,
    changeNote: row.changeNote,
    createdAt: row.createdAt,
    publishedAt: row.publishedAt,
    deprecatedAt: row.deprecatedAt,
    document: JSON.parse(row.document) as ToolContract,
  };
}
