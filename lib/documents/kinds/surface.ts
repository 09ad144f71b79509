import { studioDocumentStore, type StudioDocumentColumns } from '../stores/studio-document-store';
import type { DocumentKindSpec } from './document-kind';
import { keyedDocument } from './keyed-document';

/**
 * An agent's tool surface. The runtime does not evaluate surfaces on calls, so there is nothing
 * a shadow version could be compared with: they are only published for real.
 */
export const surfaceKind: DocumentKindSpec<StudioDocumentColumns> = {
  kind: 'surface',
  one: 'surface',
  many: 'surfaces',
  changeKey: 'surfaces',
  editPermission: 'edit_surfaces',
  apiIdField: 'id',
  shadow: false,
  store: studioDocumentStore,
  ...keyedDocument('surface'),
};
