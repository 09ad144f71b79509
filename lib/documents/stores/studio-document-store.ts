import { summarizeDocuments, type DocumentStore, type VersionRow } from './document-store';

/** A policy's or surface's owner row keeps the served version's description, if it has one. */
export interface StudioDocumentColumns {
  description: string | null;
}

const VERSION_FIELDS = {
  id: true,
  version: true,
  status: true,
  document: true,
  contentHash: true,
  changeNote: true,
  source: true,
  sourceFormat: true,
  createdById: true,
  createdAt: true,
  publishedAt: true,
  publishedBy: true,
} as const;

// Policies and surfaces cannot be deprecated: these tables have no column for it.
function versionRow({ id, ...row }: { id: string } & Omit<VersionRow, 'rowId' | 'deprecatedAt'>): VersionRow {
  return { rowId: id, ...row, deprecatedAt: null };
}

const OWNER_FIELDS = { id: true, latestVersionId: true, latestVersion: { select: { version: true } } } as const;
const ownerRow = (row: { id: string; latestVersionId: string | null; latestVersion: { version: string } | null }) => ({
  rowId: row.id,
  servedRowId: row.latestVersionId,
  servedVersion: row.latestVersion?.version ?? null,
  deprecatedAt: null,
});

/** StudioDocument and StudioDocumentVersion: policies and surfaces, one `kind` column apart. */
export const studioDocumentStore: DocumentStore<StudioDocumentColumns> = {
  async findOwner(client, ref) {
    const row = await client.studioDocument.findUnique({
      where: { tenantId_kind_name: { tenantId: ref.tenantId, kind: ref.kind, name: ref.id } },
      select: OWNER_FIELDS,
    });
    return row && ownerRow(row);
  },

  async ensureOwner(tx, ref, columns) {
    const row = await tx.studioDocument.upsert({
      where: { tenantId_kind_name: { tenantId: ref.tenantId, kind: ref.kind, name: ref.id } },
      create: { tenantId: ref.tenantId, kind: ref.kind, name: ref.id, ...columns },
      update: {},
      select: OWNER_FIELDS,
    });
    return ownerRow(row);
  },

  async findVersion(client, ownerRowId, version) {
    const row = await client.studioDocumentVersion.findUnique({
      where: { documentId_version: { documentId: ownerRowId, version } },
      select: VERSION_FIELDS,
    });
    return row && versionRow(row);
  },

  async findVersionOf(client, ref, version) {
    const row = await client.studioDocumentVersion.findFirst({
      where: { tenantId: ref.tenantId, version, owner: { kind: ref.kind, name: ref.id } },
      select: { ...VERSION_FIELDS, owner: { select: { latestVersionId: true } } },
    });
    if (!row) return null;
    const { owner, ...rest } = row;
    return { ...versionRow(rest), served: owner.latestVersionId === row.id };
  },

  async insertDraft(tx, ownerRowId, draft) {
    return versionRow(
      await tx.studioDocumentVersion.create({ data: { ...draft, documentId: ownerRowId, status: 'draft' }, select: VERSION_FIELDS }),
    );
  },

  async updateDraft(tx, rowId, draft, expectedContentHash) {
    const where = { id: rowId, status: 'draft', ...(expectedContentHash !== undefined ? { contentHash: expectedContentHash } : {}) };
    const updated = await tx.studioDocumentVersion.updateMany({ where, data: draft });
    if (updated.count !== 1) return null;
    return versionRow(await tx.studioDocumentVersion.findUniqueOrThrow({ where: { id: rowId }, select: VERSION_FIELDS }));
  },

  async freezeVersion(tx, rowId, expected, fields) {
    const updated = await tx.studioDocumentVersion.updateMany({
      where: { id: rowId, status: expected.status, contentHash: expected.contentHash },
      data: fields,
    });
    return updated.count === 1;
  },

  async listShadowVersions(tx, ownerRowId) {
    const rows = await tx.studioDocumentVersion.findMany({
      where: { documentId: ownerRowId, status: 'shadow' },
      select: { id: true, version: true },
    });
    return rows.map((row) => ({ rowId: row.id, version: row.version }));
  },

  async retireVersions(tx, rowIds) {
    await tx.studioDocumentVersion.updateMany({ where: { id: { in: rowIds } }, data: { status: 'retired' } });
  },

  async serveVersion(tx, ownerRowId, expectedServedRowId, next) {
    const updated = await tx.studioDocument.updateMany({
      where: { id: ownerRowId, latestVersionId: expectedServedRowId },
      data: next ? { latestVersionId: next.versionRowId, ...next.columns } : { latestVersionId: expectedServedRowId },
    });
    return updated.count === 1;
  },

  async listDocuments(client, tenantId, kind) {
    const [owners, versions] = await Promise.all([
      client.studioDocument.findMany({
        where: { tenantId, kind },
        orderBy: { name: 'asc' },
        select: { id: true, name: true, description: true, latestVersionId: true },
      }),
      client.studioDocumentVersion.findMany({
        where: { tenantId, owner: { kind } },
        orderBy: { createdAt: 'desc' },
        select: {
          id: true,
          documentId: true,
          version: true,
          status: true,
          contentHash: true,
          changeNote: true,
          createdAt: true,
          publishedAt: true,
        },
      }),
    ]);
    return summarizeDocuments(owners, versions, (version) => version.documentId);
  },

  async listServedDocuments(client, tenantId, kind) {
    const rows = await client.studioDocument.findMany({
      where: { tenantId, kind, latestVersionId: { not: null } },
      select: { latestVersion: { select: { document: true } } },
    });
    return rows.flatMap((row) => (row.latestVersion ? [row.latestVersion.document] : []));
  },
};
