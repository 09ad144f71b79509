import { studioDocumentStore, type StudioDocumentColumns } from '../stores/studio-document-store';
import type { DocumentKindSpec } from './document-kind';
import { keyedDocument } from './keyed-document';

/**
 * A policy: evaluated on every call (lib/policies/load-policies.ts), so a new version can be
 * published as `shadow` first and promoted once its recorded would-be decisions look right.
 */
export const policyKind: DocumentKindSpec<StudioDocumentColumns> = {
  kind: 'policy',
  one: 'policy',
  many: 'policies',
  changeKey: 'policies',
  editPermission: 'edit_policies',
  apiIdField: 'id',
  shadow: true,
  store: studioDocumentStore,
  ...keyedDocument('policy'),
};
