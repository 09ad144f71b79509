import semver from 'semver';
import { db } from '../db';
import { AppError, NotFoundError } from '../errors';
import { canonicalJson, sha256Hex } from '../contracts/canonical-json';
import { bumpChange, notifyLocalChange } from '../cache/change-feed';
import { documentKey, KIND_LABELS, type StudioDocumentKind } from './document-kinds';
import { assertPublishable } from './lint-before-publish';
import { publishableFrom, type PublishMode } from './publish-mode';

/**
 * Drafts, publishing and history of policies and tool surfaces. A draft may be unfinished (the
 * studio saves work in progress); only `id` and `version` must be valid because they key it.
 * Publishing lints the document and refuses it on any error diagnostic.
 */

export interface StudioVersionSummary {
  version: string;
  status: string;
  contentHash: string;
  changeNote: string | null;
  createdAt: Date;
  publishedAt: Date | null;
}

export interface StudioDocumentSummary {
  id: string;
  description: string | null;
  /** The version the runtime serves. */
  latestVersion: string | null;
  versions: StudioVersionSummary[];
}

const MAX_STORED_CHARS = 1_000_000;

export async function saveDocumentDraft(options: { tenantId: string; kind: StudioDocumentKind; document: unknown; createdById?: string }) {
  const key = documentKey(options.document);
  if ('problem' in key) throw new AppError('bad_request', key.problem);
  const text = canonicalJson(options.document);
  if (text.length > MAX_STORED_CHARS) throw new AppError('payload_too_large', `The ${KIND_LABELS[options.kind].one} is larger than ${MAX_STORED_CHARS} characters.`);
  const contentHash = sha256Hex(text);
  const label = `${KIND_LABELS[options.kind].one} ${key.name}@${key.version}`;

  return db().$transaction(async (tx) => {
    const owner = await tx.studioDocument.upsert({
      where: { tenantId_kind_name: { tenantId: options.tenantId, kind: options.kind, name: key.name } },
      create: { tenantId: options.tenantId, kind: options.kind, name: key.name, description: key.description },
      update: {},
    });
    const existing = await tx.studioDocumentVersion.findUnique({ where: { documentId_version: { documentId: owner.id, version: key.version } } });
    if (existing && existing.status !== 'draft') {
      throw new AppError('conflict', `${label} is already ${existing.status} and cannot change; save it as a new version.`, { id: key.name, version: key.version, status: existing.status });
    }
    const row = existing
      ? await tx.studioDocumentVersion.update({ where: { id: existing.id }, data: { document: text, contentHash, createdById: options.createdById ?? existing.createdById } })
      : await tx.studioDocumentVersion.create({
          data: { tenantId: options.tenantId, documentId: owner.id, version: key.version, status: 'draft', document: text, contentHash, createdById: options.createdById ?? null },
        });
    return { id: key.name, version: row.version, status: row.status, contentHash: row.contentHash, created: !existing };
  });
}

export async function publishDocumentVersion(options: { tenantId: string; kind: StudioDocumentKind; id: string; version: string; changeNote?: string; publishedBy?: string; mode?: PublishMode }) {
  const mode = options.mode ?? 'enforce';
  // Only policies and contracts are evaluated at runtime; a surface has nothing to shadow.
  if (mode === 'shadow' && options.kind !== 'policy') throw new AppError('bad_request', `A ${KIND_LABELS[options.kind].one} cannot be published as shadow; only policies and contracts can.`);
  const label = `${KIND_LABELS[options.kind].one} ${options.id}@${options.version}`;
  const owner = await db().studioDocument.findUnique({
    where: { tenantId_kind_name: { tenantId: options.tenantId, kind: options.kind, name: options.id } },
    include: { latestVersion: { select: { version: true } } },
  });
  if (!owner) throw new NotFoundError(KIND_LABELS[options.kind].one, options.id);
  const row = await db().studioDocumentVersion.findUnique({ where: { documentId_version: { documentId: owner.id, version: options.version } } });
  if (!row) throw new NotFoundError(`${KIND_LABELS[options.kind].one} version`, `${options.id}@${options.version}`);
  if (!publishableFrom(row.status, mode)) throw new AppError('conflict', `${label} is already ${row.status}.`, { status: row.status });

  const latest = owner.latestVersion?.version;
  if (latest && !semver.gt(options.version, latest)) {
    throw new AppError('conflict', `Version ${options.version} must be greater than the published ${latest}.`, { latest_version: latest });
  }
  const document: unknown = JSON.parse(row.document);
  await assertPublishable({ tenantId: options.tenantId, kind: options.kind, document, previousVersion: latest, label });
  const key = documentKey(document);

  const publishedAt = new Date();
  const published = await db().$transaction(async (tx) => {
    // Conditional on still being a draft: of two concurrent publishes exactly one wins.
    const status = mode === 'shadow' ? 'shadow' : 'published';
    const updated = await tx.studioDocumentVersion.updateMany({
      where: { id: row.id, status: row.status },
      data: { status, publishedAt, publishedBy: options.publishedBy ?? null, changeNote: options.changeNote ?? row.changeNote ?? null },
    });
    if (updated.count !== 1) throw new AppError('conflict', `${label} was published concurrently.`);
    const shadows = await tx.studioDocumentVersion.findMany({ where: { documentId: owner.id, status: 'shadow', id: { not: row.id } }, select: { id: true, version: true } });
    const retire = shadows.filter((s) => mode === 'shadow' || !semver.gt(s.version, options.version)).map((s) => s.id);
    if (retire.length > 0) await tx.studioDocumentVersion.updateMany({ where: { id: { in: retire } }, data: { status: 'retired' } });
    if (mode === 'enforce') {
      await tx.studioDocument.update({ where: { id: owner.id }, data: { latestVersionId: row.id, description: 'problem' in key ? null : key.description } });
    }
    await bumpChange(tx, KIND_LABELS[options.kind].changeKey);
    return { id: options.id, version: options.version, status, contentHash: row.contentHash, publishedAt };
  });
  notifyLocalChange(KIND_LABELS[options.kind].changeKey);
  return published;
}

export async function listDocuments(options: { tenantId: string; kind: StudioDocumentKind }): Promise<StudioDocumentSummary[]> {
  const rows = await db().studioDocument.findMany({
    where: { tenantId: options.tenantId, kind: options.kind },
    orderBy: { name: 'asc' },
    include: {
      latestVersion: { select: { version: true } },
      versions: { orderBy: { createdAt: 'desc' }, select: { version: true, status: true, contentHash: true, changeNote: true, createdAt: true, publishedAt: true } },
    },
  });
  return rows.map((row) => ({ id: row.name, description: row.description, latestVersion: row.latestVersion?.version ?? null, versions: row.versions }));
}

export async function getDocumentVersion(options: { tenantId: string; kind: StudioDocumentKind; id: string; version: string }) {
  const row = await db().studioDocumentVersion.findFirst({
    where: { tenantId: options.tenantId, version: options.version, owner: { kind: options.kind, name: options.id } },
    include: { owner: { select: { latestVersionId: true } } },
  });
  if (!row) throw new NotFoundError(`${KIND_LABELS[options.kind].one} version`, `${options.id}@${options.version}`);
  return {
    id: options.id,
    version: row.version,
    status: row.status,
    served: row.owner.latestVersionId === row.id,
    contentHash: row.contentHash,
    changeNote: row.changeNote,
    createdAt: row.createdAt,
    publishedAt: row.publishedAt,
    publishedBy: row.publishedBy,
    document: JSON.parse(row.document) as unknown,
  };
}
