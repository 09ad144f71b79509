import { db } from '../db';
import { NotFoundError } from '../errors';
import { isStorableText } from '../stored-text';
import type { DocumentKind } from '../lint';
import { storedSource, type DocumentSource } from './document-source';
import { documentKind } from './kinds';

export interface DocumentVersion {
  id: string;
  version: string;
  status: string;
  /** Whether this is the version the runtime serves when a call does not pin one. */
  served: boolean;
  contentHash: string;
  changeNote: string | null;
  createdAt: Date;
  publishedAt: Date | null;
  publishedBy: string | null;
  deprecatedAt: Date | null;
  document: unknown;
  /** The text the author wrote in the studio, when the version was saved from there. */
  source: DocumentSource | null;
}

/** One version of a document with its parsed document; 404 `not_found` when the tenant has no such version. */
export async function getDocumentVersionOrThrow(options: {
  tenantId: string;
  kind: DocumentKind;
  id: string;
  version: string;
}): Promise<DocumentVersion> {
  const spec = documentKind(options.kind);
  // Studio pages pass ?version= and their path's id as given: a name no text column holds names no version.
  const row =
    isStorableText(options.id) && isStorableText(options.version)
      ? await spec.store.findVersionOf(db(), { tenantId: options.tenantId, kind: options.kind, id: options.id }, options.version)
      : null;
  if (!row) throw new NotFoundError(`${spec.one} version`, `${options.id}@${options.version}`);
  return {
    id: options.id,
    version: row.version,
    status: row.status,
    served: row.served,
    contentHash: row.contentHash,
    changeNote: row.changeNote,
    createdAt: row.createdAt,
    publishedAt: row.publishedAt,
    publishedBy: row.publishedBy,
    deprecatedAt: row.deprecatedAt,
    document: JSON.parse(row.document) as unknown,
    source: storedSource(row),
  };
}
