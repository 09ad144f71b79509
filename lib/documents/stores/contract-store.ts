import { summarizeDocuments, type DocumentStore, type VersionRow } from './document-store';

/** A contract's owner row keeps the served version's description and owning team. */
export interface ContractColumns {
  description: string;
  owner: string;
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
  deprecatedAt: true,
} as const;

function versionRow({ id, ...row }: { id: string } & Omit<VersionRow, 'rowId'>): VersionRow {
  return { rowId: id, ...row };
}

const OWNER_FIELDS = { id: true, deprecatedAt: true, latestVersionId: true, latestVersion: { select: { version: true } } } as const;
const ownerRow = (row: {
  id: string;
  deprecatedAt: Date | null;
  latestVersionId: string | null;
  latestVersion: { version: string } | null;
}) => ({
  rowId: row.id,
  servedRowId: row.latestVersionId,
  servedVersion: row.latestVersion?.version ?? null,
  deprecatedAt: row.deprecatedAt,
});

/** Contract and ContractVersion: the tables the runtime resolves contracts from on every call. */
export const contractStore: DocumentStore<ContractColumns> = {
  async findOwner(client, ref) {
    const row = await client.contract.findUnique({
      where: { tenantId_name: { tenantId: ref.tenantId, name: ref.id } },
      select: OWNER_FIELDS,
    });
    return row && ownerRow(row);
  },

  async ensureOwner(tx, ref, columns) {
    const row = await tx.contract.upsert({
      where: { tenantId_name: { tenantId: ref.tenantId, name: ref.id } },
      create: { tenantId: ref.tenantId, name: ref.id, ...columns },
      update: {},
      select: OWNER_FIELDS,
    });
    return ownerRow(row);
  },

  async findVersion(client, ownerRowId, version) {
    const row = await client.contractVersion.findUnique({
      where: { contractId_version: { contractId: ownerRowId, version } },
      select: VERSION_FIELDS,
    });
    return row && versionRow(row);
  },

  async findVersionOf(client, ref, version) {
    const row = await client.contractVersion.findFirst({
      where: { tenantId: ref.tenantId, version, contract: { name: ref.id } },
      select: { ...VERSION_FIELDS, contract: { select: { latestVersionId: true } } },
    });
    if (!row) return null;
    const { contract, ...rest } = row;
    return { ...versionRow(rest), served: contract.latestVersionId === row.id };
  },

  async insertDraft(tx, ownerRowId, draft) {
    return versionRow(
      await tx.contractVersion.create({ data: { ...draft, contractId: ownerRowId, status: 'draft' }, select: VERSION_FIELDS }),
    );
  },

  async updateDraft(tx, rowId, draft, expectedContentHash) {
    const where = { id: rowId, status: 'draft', ...(expectedContentHash !== undefined ? { contentHash: expectedContentHash } : {}) };
    const updated = await tx.contractVersion.updateMany({ where, data: draft });
    if (updated.count !== 1) return null;
    return versionRow(await tx.contractVersion.findUniqueOrThrow({ where: { id: rowId }, select: VERSION_FIELDS }));
  },

  async freezeVersion(tx, rowId, expected, fields) {
    const updated = await tx.contractVersion.updateMany({
      where: { id: rowId, status: expected.status, contentHash: expected.contentHash },
      data: fields,
    });
    return updated.count === 1;
  },

  async listShadowVersions(tx, ownerRowId) {
    const rows = await tx.contractVersion.findMany({
      where: { contractId: ownerRowId, status: 'shadow' },
      select: { id: true, version: true },
    });
    return rows.map((row) => ({ rowId: row.id, version: row.version }));
  },

  async retireVersions(tx, rowIds) {
    await tx.contractVersion.updateMany({ where: { id: { in: rowIds } }, data: { status: 'retired' } });
  },

  async serveVersion(tx, ownerRowId, expectedServedRowId, next) {
    const updated = await tx.contract.updateMany({
      where: { id: ownerRowId, latestVersionId: expectedServedRowId },
      data: next ? { latestVersionId: next.versionRowId, ...next.columns } : { latestVersionId: expectedServedRowId },
    });
    return updated.count === 1;
  },

  async listDocuments(client, tenantId) {
    const [owners, versions] = await Promise.all([
      client.contract.findMany({
        where: { tenantId },
        orderBy: { name: 'asc' },
        select: { id: true, name: true, description: true, owner: true, deprecatedAt: true, latestVersionId: true },
      }),
      client.contractVersion.findMany({
        where: { tenantId },
        orderBy: { createdAt: 'desc' },
        select: {
          id: true,
          contractId: true,
          version: true,
          status: true,
          contentHash: true,
          changeNote: true,
          createdAt: true,
          publishedAt: true,
          deprecatedAt: true,
        },
      }),
    ]);
    return summarizeDocuments(owners, versions, (version) => version.contractId);
  },

  async listServedDocuments(client, tenantId) {
    const rows = await client.contract.findMany({
      where: { tenantId, latestVersionId: { not: null } },
      select: { latestVersion: { select: { document: true } } },
    });
    return rows.flatMap((row) => (row.latestVersion ? [row.latestVersion.document] : []));
  },

  deprecation: {
    async deprecateVersion(tx, rowId, at) {
      await tx.contractVersion.update({ where: { id: rowId }, data: { status: 'deprecated', deprecatedAt: at } });
    },
    async deprecateOwner(tx, ownerRowId, at) {
      await tx.contract.update({ where: { id: ownerRowId }, data: { deprecatedAt: at } });
    },
  },
};
