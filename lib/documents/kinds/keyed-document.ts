import { AppError } from '../../errors';
import { canonicalJson } from '../../contracts/canonical-json';
import { documentKey } from '../document-kinds';
import type { StudioDocumentColumns } from '../stores/studio-document-store';
import type { DocumentKindSpec } from './document-kind';

const MAX_STORED_CHARS = 1_000_000;

/**
 * Policies and surfaces: a draft may be unfinished (the studio saves work in progress), so only
 * the `id` and `version` that key it must be valid; the linter decides on publish whether it
 * can be served. What the two kinds share, apart from their nouns.
 */
export function keyedDocument(one: string): Pick<DocumentKindSpec<StudioDocumentColumns>, 'label' | 'readDraft' | 'compile'> {
  return {
    label: (id, version) => `${one} ${id}@${version}`,

    readDraft(document) {
      const key = documentKey(document);
      if ('problem' in key) throw new AppError('bad_request', key.problem);
      const text = canonicalJson(document);
      if (text.length > MAX_STORED_CHARS)
        throw new AppError('payload_too_large', `The ${one} is larger than ${MAX_STORED_CHARS} characters.`);
      return { id: key.id, version: key.version, text, columns: { description: key.description } };
    },

    compile(document) {
      const key = documentKey(document);
      return { document, contentHash: null, columns: { description: 'problem' in key ? null : key.description } };
    },
  };
}
