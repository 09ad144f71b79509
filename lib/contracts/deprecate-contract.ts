import { db } from '../db';
import { AppError, NotFoundError } from '../errors';
import { bumpChange, notifyLocalChange } from '../cache/change-feed';

/**
 * Marks a published version, or the whole contract, deprecated. Deprecated contracts keep
 * validating (agents get an AXAG_CONTRACT_DEPRECATED warning) until they are replaced.
 */
export async function deprecateContract(options: { tenantId: string; tool: string; version?: string }) {
  const contract = await db().contract.findUnique({ where: { tenantId_tool: { tenantId: options.tenantId, tool: options.tool } } });
  if (!contract) throw new NotFoundError('contract', options.tool);
  const now = new Date();
  if (options.version) {
    const row = await db().contractVersion.findUnique({ where: { contractId_version: { contractId: contract.id, version: options.version } } });
    if (!row) throw new NotFoundError('contract version', `${options.tool}@${options.version}`);
    if (row.status === 'draft') throw new AppError('conflict', 'A draft cannot be deprecated; it was never published.');
    if (row.status !== 'deprecated') {
      await db().$transaction(async (tx) => {
        await tx.contractVersion.update({ where: { id: row.id }, data: { status: 'deprecated', deprecatedAt: now } });
        await bumpChange(tx, 'contracts');
      });
      notifyLocalChange('contracts');
    }
    return { tool: options.tool, version: options.version, deprecatedAt: row.deprecatedAt ?? now };
  }
  if (!contract.deprecatedAt) {
    await db().$transaction(async (tx) => {
      await tx.contract.update({ where: { id: contract.id }, data: { deprecatedAt: now } });
      await bumpChange(tx, 'contracts');
    });
    notifyLocalChange('contracts');
  }
  return { tool: options.tool, deprecatedAt: contract.deprecatedAt ?? now };
}

