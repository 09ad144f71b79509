import semver from 'semver';
import { db } from '../db';
import { AppError, NotFoundError } from '../errors';
import { compileContract } from './compile-contract';
import { bumpChange, notifyLocalChange } from '../cache/change-feed';
import { assertPublishable } from '../documents/lint-before-publish';
import { publishableFrom, type PublishMode } from '../documents/publish-mode';

/**
 * Publishes a draft: compiles it (refusing any contract that does not compile), checks that the
 * version moves forward, then freezes it with its content hash and makes it the version the
 * runtime serves by default. In `shadow` mode it is frozen the same way but only evaluated
 * beside the served version (recorded, deciding nothing) until it is published for real;
 * a tool has at most one shadow version, so a newer one retires the previous.
 */
export async function publishContractVersion(options: { tenantId: string; tool: string; version: string; changeNote?: string; publishedBy?: string; mode?: PublishMode }) {
  const mode = options.mode ?? 'enforce';
  const contract = await db().contract.findUnique({
    where: { tenantId_tool: { tenantId: options.tenantId, tool: options.tool } },
    include: { latestVersion: { select: { version: true } } },
  });
  if (!contract) throw new NotFoundError('contract', options.tool);
  const row = await db().contractVersion.findUnique({ where: { contractId_version: { contractId: contract.id, version: options.version } } });
  if (!row) throw new NotFoundError('contract version', `${options.tool}@${options.version}`);
  if (!publishableFrom(row.status, mode)) throw new AppError('conflict', `${options.tool}@${options.version} is already ${row.status}.`, { status: row.status });

  const compiled = compileContract(JSON.parse(row.document));
  if (!compiled.ok) {
    throw new AppError('contract_invalid', `${options.tool}@${options.version} does not compile: ${compiled.problems[0]?.message ?? 'unknown problem'}`, { problems: compiled.problems });
  }
  const latest = contract.latestVersion?.version;
  if (latest && !semver.gt(options.version, latest)) {
    throw new AppError('conflict', `Version ${options.version} must be greater than the published ${latest}.`, { latest_version: latest });
  }
  await assertPublishable({ tenantId: options.tenantId, kind: 'contract', document: compiled.contract.document, previousVersion: latest, label: `${options.tool}@${options.version}` });

  const publishedAt = new Date();
  const published = await db().$transaction(async (tx) => {
    // Conditional on still being a draft: of two concurrent publishes exactly one wins.
    const status = mode === 'shadow' ? 'shadow' : 'published';
    const updated = await tx.contractVersion.updateMany({
      where: { id: row.id, status: row.status },
      data: { status, publishedAt, publishedBy: options.publishedBy ?? null, changeNote: options.changeNote ?? row.changeNote ?? null, contentHash: compiled.contract.hash },
    });
    if (updated.count !== 1) throw new AppError('conflict', `${options.tool}@${options.version} was published concurrently.`);
    const shadows = await tx.contractVersion.findMany({ where: { contractId: contract.id, status: 'shadow', id: { not: row.id } }, select: { id: true, version: true } });
    const retire = shadows.filter((s) => mode === 'shadow' || !semver.gt(s.version, options.version)).map((s) => s.id);
    if (retire.length > 0) await tx.contractVersion.updateMany({ where: { id: { in: retire } }, data: { status: 'retired' } });
    if (mode === 'enforce') {
      await tx.contract.update({
        where: { id: contract.id },
        data: { latestVersionId: row.id, description: compiled.contract.document.description, owner: compiled.contract.document.owner },
      });
    }
    await bumpChange(tx, 'contracts');
    return { tool: options.tool, version: options.version, status, contentHash: compiled.contract.hash, publishedAt };
  });
  notifyLocalChange('contracts');
  return published;
}
