import { db } from '../db';
import { draftChangedSinceLoaded } from './changed-since-loaded';
import { AppError, NotFoundError } from '../errors';
import { bumpChange, notifyLocalChange } from '../cache/change-feed';
import type { DocumentKind } from '../lint';
import { isNewerVersion } from '../lint/semver';
import { documentKind } from './kinds';
import { assertPublishable } from './lint-before-publish';
import { publishableFrom, type PublishMode } from './publish-mode';
import { now } from '../clock/clock';

export interface PublishedVersion {
  id: string;
  version: string;
  status: 'published' | 'shadow';
  contentHash: string;
  publishedAt: Date;
}

/**
 * Publishes a draft: compiles it the kind's way, checks that the version moves forward, lints
 * it (refusing any error diagnostic), then freezes it and makes it the version the runtime
 * serves. In `shadow` mode it is frozen the same way but only evaluated beside the served
 * version (recorded, deciding nothing); publishing a shadow version again with `enforce`
 * promotes it. A document has at most one shadow version: a newer one retires the previous,
 * and promoting retires those not newer than the promoted one.
 */
export async function publishDocumentVersion<K extends DocumentKind>(options: {
  tenantId: string;
  kind: K;
  id: string;
  version: string;
  changeNote?: string;
  publishedBy?: string;
  mode?: PublishMode;
  /** The content hash the author saw (the studio's last save): publishing another text is a 409 (changed_since_loaded). */
  expectedContentHash?: string;
}): Promise<PublishedVersion> {
  const spec = documentKind(options.kind);
  const mode = options.mode ?? 'enforce';
  if (mode === 'shadow' && !spec.shadow)
    throw new AppError('bad_request', `A ${spec.one} cannot be published as shadow; only policies and contracts can.`);
  const label = spec.label(options.id, options.version);
  const owner = await spec.store.findOwner(db(), { tenantId: options.tenantId, kind: options.kind, id: options.id });
  if (!owner) throw new NotFoundError(spec.one, options.id);
  const row = await spec.store.findVersion(db(), owner.rowId, options.version);
  if (!row) throw new NotFoundError(`${spec.one} version`, `${options.id}@${options.version}`);
  if (!publishableFrom(row.status, mode)) throw new AppError('conflict', `${label} is already ${row.status}.`, { status: row.status });
  // The freeze below is conditional on this text, so a save after this check fails it too.
  if (options.expectedContentHash !== undefined && row.contentHash !== options.expectedContentHash)
    throw draftChangedSinceLoaded(label, row.contentHash);

  const compiled = spec.compile(JSON.parse(row.document), label);
  const latest = owner.servedVersion ?? undefined;
  if (latest && !isNewerVersion(options.version, latest)) {
    throw new AppError('conflict', `Version ${options.version} must be greater than the published ${latest}.`, { latest_version: latest });
  }
  await assertPublishable({ tenantId: options.tenantId, kind: options.kind, document: compiled.document, previousVersion: latest, label });

  const status = mode === 'shadow' ? 'shadow' : 'published';
  const publishedAt = now();
  const contentHash = compiled.contentHash ?? row.contentHash;
  await db().$transaction(async (tx) => {
    // Conditional on the served version read above, whose order and lint this publish checked
    // against: of two versions published at once, the one that finds another served since is
    // refused, so the served version never goes back to the older of the two. First, because it
    // writes the owner row: on PostgreSQL publishes of one document wait here for each other, so
    // the shadow versions listed below include those another publish just committed.
    const next = mode === 'enforce' ? { versionRowId: row.rowId, columns: compiled.columns } : null;
    if (!(await spec.store.serveVersion(tx, owner.rowId, owner.servedRowId, next)))
      throw new AppError(
        'conflict',
        `${label} was not published: another publish of ${options.id} went first. Publish again to check it against what is served now.`,
      );
    // Conditional on the status and text read above: of two concurrent publishes exactly one
    // wins, and a draft saved again meanwhile is not frozen unchecked under the old text's hash.
    const frozen = await spec.store.freezeVersion(
      tx,
      row.rowId,
      { status: row.status, contentHash: row.contentHash },
      {
        status,
        publishedAt,
        publishedBy: options.publishedBy ?? null,
        changeNote: options.changeNote ?? row.changeNote,
        contentHash,
      },
    );
    if (!frozen)
      throw new AppError('conflict', `${label} was published or saved again meanwhile; publish it again to check what it holds now.`);
    const shadows = (await spec.store.listShadowVersions(tx, owner.rowId)).filter((shadow) => shadow.rowId !== row.rowId);
    const retire = shadows
      .filter((shadow) => mode === 'shadow' || !isNewerVersion(shadow.version, options.version))
      .map((shadow) => shadow.rowId);
    if (retire.length > 0) await spec.store.retireVersions(tx, retire);
    await bumpChange(tx, spec.changeKey);
  });
  notifyLocalChange(spec.changeKey);
  return { id: options.id, version: options.version, status, contentHash, publishedAt };
}
