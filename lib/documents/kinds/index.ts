import type { DocumentKind } from '../../lint';
import type { ContractColumns } from '../stores/contract-store';
import type { StudioDocumentColumns } from '../stores/studio-document-store';
import { contractKind } from './contract';
import type { DocumentKindSpec } from './document-kind';
import { policyKind } from './policy';
import { surfaceKind } from './surface';

interface ColumnsOf {
  contract: ContractColumns;
  policy: StudioDocumentColumns;
  surface: StudioDocumentColumns;
}

// A mapped type, so code generic in the kind sees one spec whose store takes the columns its
// hooks return (TypeScript correlates the two through `K`).
const KINDS: { [K in DocumentKind]: DocumentKindSpec<ColumnsOf[K]> } = { contract: contractKind, policy: policyKind, surface: surfaceKind };

/** A document kind's plug-in. A new kind is one file in this folder, its entries above, and its name in lib/lint's DocumentKind. */
export function documentKind<K extends DocumentKind>(kind: K): DocumentKindSpec<ColumnsOf[K]> {
  return KINDS[kind];
}
