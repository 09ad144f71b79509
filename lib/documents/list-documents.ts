import { db } from '../db';
import type { DocumentKind } from '../lint';
import { documentKind } from './kinds';
import type { DocumentSummary } from './stores/document-store';

export type { DocumentSummary } from './stores/document-store';

/** Every document of a kind in a tenant, by id, each with its versions newest first. */
export async function listDocuments(options: { tenantId: string; kind: DocumentKind }): Promise<DocumentSummary[]> {
  return documentKind(options.kind).store.listDocuments(db(), options.tenantId, options.kind);
}

/** The parsed documents of the versions the runtime serves, one per document of the kind. */
export async function listServedDocuments(options: { tenantId: string; kind: DocumentKind }): Promise<unknown[]> {
  const texts = await documentKind(options.kind).store.listServedDocuments(db(), options.tenantId, options.kind);
  return texts.map((text) => JSON.parse(text) as unknown);
}
