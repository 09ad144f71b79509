import { db } from '../db';
import { AppError, NotFoundError } from '../errors';
import { isStorableText } from '../stored-text';
import { bumpChange, notifyLocalChange } from '../cache/change-feed';
import type { DocumentKind } from '../lint';
import { documentKind } from './kinds';

/**
 * Marks a published version, or the whole document, deprecated. A deprecated contract keeps
 * validating (agents get an AXAG_CONTRACT_DEPRECATED warning) until it is replaced. Only
 * contracts can be deprecated: the other kinds' tables have no place to record it.
 */
export async function deprecateDocument(options: {
  tenantId: string;
  kind: DocumentKind;
  id: string;
  version?: string;
}): Promise<{ id: string; version?: string; deprecatedAt: Date }> {
  const spec = documentKind(options.kind);
  const deprecation = spec.store.deprecation;
  if (!deprecation) throw new AppError('bad_request', `A ${spec.one} cannot be deprecated; only contracts can.`);
  const owner = await spec.store.findOwner(db(), { tenantId: options.tenantId, kind: options.kind, id: options.id });
  if (!owner) throw new NotFoundError(spec.one, options.id);
  const now = new Date();
  if (options.version) {
    const row = isStorableText(options.version) ? await spec.store.findVersion(db(), owner.rowId, options.version) : null;
    if (!row) throw new NotFoundError(`${spec.one} version`, `${options.id}@${options.version}`);
    if (row.status === 'draft') throw new AppError('conflict', 'A draft cannot be deprecated; it was never published.');
    if (row.status !== 'deprecated') {
      await db().$transaction(async (tx) => {
        await deprecation.deprecateVersion(tx, row.rowId, now);
        await bumpChange(tx, spec.changeKey);
      });
      notifyLocalChange(spec.changeKey);
    }
    return { id: options.id, version: options.version, deprecatedAt: row.deprecatedAt ?? now };
  }
  if (!owner.deprecatedAt) {
    await db().$transaction(async (tx) => {
      await deprecation.deprecateOwner(tx, owner.rowId, now);
      await bumpChange(tx, spec.changeKey);
    });
    notifyLocalChange(spec.changeKey);
  }
  return { id: options.id, deprecatedAt: owner.deprecatedAt ?? now };
}
