import type { Db, Tx } from '../../db';
import type { DocumentKind } from '../../lint';

/**
 * What the versioned-document core (lib/documents) needs of a table family. Contracts keep their
 * own tables (Contract, ContractVersion: the runtime resolves them on every call) and policies
 * and surfaces share StudioDocument and StudioDocumentVersion keyed by `kind`; each family
 * implements this once, and nothing but the core calls it. An owner row holds one document
 * (its id, the columns kept from the served version, which version is served); a version row
 * holds one frozen or draft text of it.
 *
 * `rowId` is a row's key; `id` is always the document's own id (for a contract, its tool's id).
 */
export type Client = Db | Tx;

export interface DocumentRef {
  tenantId: string;
  kind: DocumentKind;
  id: string;
}

export interface OwnerRow {
  rowId: string;
  /** The row of the served version, for a compare-and-set when another is served. */
  servedRowId: string | null;
  /** The version the runtime serves when a call does not pin one. */
  servedVersion: string | null;
  deprecatedAt: Date | null;
}

export interface VersionRow {
  rowId: string;
  version: string;
  /** draft | published | shadow | retired | deprecated */
  status: string;
  /** The document as canonical JSON text. */
  document: string;
  contentHash: string;
  changeNote: string | null;
  /** The text the author wrote in the studio, when it was saved from there (lib/documents/document-source.ts). */
  source: string | null;
  sourceFormat: string | null;
  createdById: string | null;
  createdAt: Date;
  publishedAt: Date | null;
  publishedBy: string | null;
  deprecatedAt: Date | null;
}

export interface DocumentVersionSummary {
  version: string;
  status: string;
  contentHash: string;
  changeNote: string | null;
  createdAt: Date;
  publishedAt: Date | null;
  deprecatedAt: Date | null;
}

export interface DocumentSummary {
  id: string;
  description: string | null;
  /** Contracts name the team that owns the tool; other kinds have no owner. */
  owner: string | null;
  deprecatedAt: Date | null;
  /** The version the runtime serves when a call does not pin one. */
  latestVersion: string | null;
  /** Newest first. */
  versions: DocumentVersionSummary[];
}

export interface FrozenFields {
  status: 'published' | 'shadow';
  publishedAt: Date;
  publishedBy: string | null;
  changeNote: string | null;
  contentHash: string;
}

/** What saving a draft writes into its version row. */
export interface DraftFields {
  document: string;
  contentHash: string;
  source: string | null;
  sourceFormat: string | null;
  createdById: string | null;
}

/** `Columns`: what the owner row keeps from the document (its description, a contract's owner). */
export interface DocumentStore<Columns> {
  findOwner(client: Client, ref: DocumentRef): Promise<OwnerRow | null>;
  /** The owner row, created with `columns` if the document is new (an existing one keeps its own until a version is served). */
  ensureOwner(tx: Tx, ref: DocumentRef, columns: Columns): Promise<OwnerRow>;
  findVersion(client: Client, ownerRowId: string, version: string): Promise<VersionRow | null>;
  /** One version of the document `ref`, and whether its owner serves it. */
  findVersionOf(client: Client, ref: DocumentRef, version: string): Promise<(VersionRow & { served: boolean }) | null>;
  insertDraft(tx: Tx, ownerRowId: string, draft: DraftFields & { tenantId: string; version: string }): Promise<VersionRow>;
  /**
   * Replaces a draft's text only while it is a draft (and, with `expectedContentHash`, still that
   * text): null when it was published, or saved over, since it was read.
   */
  updateDraft(tx: Tx, rowId: string, draft: DraftFields, expectedContentHash?: string): Promise<VersionRow | null>;
  /**
   * Freezes the version only if its status and stored hash are still those read: false when a
   * concurrent writer published it, or saved another text over the draft, first.
   */
  freezeVersion(tx: Tx, rowId: string, expected: { status: string; contentHash: string }, fields: FrozenFields): Promise<boolean>;
  listShadowVersions(tx: Tx, ownerRowId: string): Promise<{ rowId: string; version: string }[]>;
  retireVersions(tx: Tx, rowIds: string[]): Promise<void>;
  /**
   * Serves `next` (its version row, and the owner's columns taken from it), or with null keeps
   * what is served, only if the owner still serves `expectedServedRowId`: false when another
   * publish changed the served version since it was read.
   */
  serveVersion(
    tx: Tx,
    ownerRowId: string,
    expectedServedRowId: string | null,
    next: { versionRowId: string; columns: Columns } | null,
  ): Promise<boolean>;
  listDocuments(client: Client, tenantId: string, kind: DocumentKind): Promise<DocumentSummary[]>;
  /** The document texts of the versions the runtime serves. */
  listServedDocuments(client: Client, tenantId: string, kind: DocumentKind): Promise<string[]>;
  /** Only the contract tables have deprecation columns. */
  deprecation?: {
    deprecateVersion(tx: Tx, rowId: string, at: Date): Promise<void>;
    deprecateOwner(tx: Tx, ownerRowId: string, at: Date): Promise<void>;
  };
}

/**
 * A listing's summaries from its owner rows and version rows, read in two flat queries and
 * joined here: a Prisma `include` loads the versions with one bound parameter per owner, and
 * SQLite takes at most 999, so a tenant's list failed (P2029) past about a thousand documents.
 * Versions keep the order they came in (newest first).
 */
export function summarizeDocuments<V extends Omit<DocumentVersionSummary, 'deprecatedAt'> & { id: string; deprecatedAt?: Date | null }>(
  owners: {
    id: string;
    name: string;
    description: string | null;
    latestVersionId: string | null;
    owner?: string | null;
    deprecatedAt?: Date | null;
  }[],
  versions: V[],
  ownerRowId: (version: V) => string,
): DocumentSummary[] {
  const byOwner = new Map<string, V[]>();
  for (const version of versions) {
    const key = ownerRowId(version);
    const list = byOwner.get(key);
    if (list) list.push(version);
    else byOwner.set(key, [version]);
  }
  return owners.map((row) => {
    const own = byOwner.get(row.id) ?? [];
    return {
      id: row.name,
      description: row.description,
      owner: row.owner ?? null,
      deprecatedAt: row.deprecatedAt ?? null,
      latestVersion: own.find((version) => version.id === row.latestVersionId)?.version ?? null,
      versions: own.map(({ version, status, contentHash, changeNote, createdAt, publishedAt, deprecatedAt }) => ({
        version,
        status,
        contentHash,
        changeNote,
        createdAt,
        publishedAt,
        deprecatedAt: deprecatedAt ?? null,
      })),
    };
  });
}
