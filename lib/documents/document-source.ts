import { z } from 'zod';
import { AppError } from '../errors';
import { hasOwn, isPlainObject } from '../json';
import { storedTextProblem } from '../stored-text';
// Not the lint index: the studio imports this module, and the index would bring every rule into
// the page (the linter itself runs in a web worker).
import { MAX_DOCUMENT_CHARS, parseDocument } from '../lint/parse-document';
import type { DocumentFormat, DocumentKind } from '../lint/types';

/**
 * The text an author wrote in the studio, kept beside the canonical document so that reopening a
 * draft shows exactly what was typed (JSON or YAML, their key order, comments and spacing) while
 * hashing, publishing and the runtime keep using the canonical document. A source is only kept
 * when it reads as exactly that document, so what the author sees is what is stored.
 */

/**
 * The media type of a draft sent with its source: `{document, source}` instead of the document
 * alone (lib/api/handlers/draft-body.ts reads it; the studio sends it).
 */
export const DRAFT_MEDIA_TYPE = 'application/vnd.toolgate.draft+json';

export interface DocumentSource {
  format: DocumentFormat;
  text: string;
}

export const DocumentSourceSchema = z
  .object({
    format: z.enum(['json', 'yaml']),
    text: z.string().max(MAX_DOCUMENT_CHARS),
  })
  .strict()
  .describe('The text the document was written as, in the studio.');

/**
 * Members some kinds edit beside the text, so the source may leave them out: a surface's system
 * prompt has its own editor (components/studio). Taken from the document when the source omits them.
 */
const EDITED_BESIDE: Partial<Record<DocumentKind, readonly string[]>> = { surface: ['system'] };

/**
 * The source as stored, or an AppError `bad_request` when it does not read as `document`:
 * `canonical` turns a document into the text the kind stores (its readDraft), so defaults a kind
 * fills in are compared as stored.
 */
export function checkedSource(
  kind: DocumentKind,
  document: unknown,
  source: DocumentSource,
  canonical: (document: unknown) => string,
): DocumentSource {
  // YAML reads a NUL in a comment or a quoted string without a word; a lone surrogate came back
  // as U+FFFD, so the reopened text no longer read as the document, and saving it again changed
  // the document unseen.
  const problem = storedTextProblem('The source text', source.text);
  if (problem) throw new AppError('bad_request', `${problem}.`);
  const parsed = parseDocument(source.text, source.format);
  if (parsed.value === undefined || !isPlainObject(parsed.value) || !isPlainObject(document)) {
    throw new AppError('bad_request', `The source text does not parse as a ${source.format.toUpperCase()} object.`);
  }
  const read: Record<string, unknown> = { ...parsed.value };
  for (const field of EDITED_BESIDE[kind] ?? []) {
    if (!hasOwn(read, field) && hasOwn(document, field)) read[field] = document[field];
  }
  let same = false;
  try {
    same = canonical(read) === canonical(document);
  } catch {
    same = false;
  }
  if (!same) throw new AppError('bad_request', 'The source text does not read as the document it was sent with.');
  return source;
}

/** A stored source, when there is one and its format is known. */
export function storedSource(row: { source: string | null; sourceFormat: string | null }): DocumentSource | null {
  if (row.source === null || (row.sourceFormat !== 'json' && row.sourceFormat !== 'yaml')) return null;
  return { format: row.sourceFormat, text: row.source };
}

/** Kinds whose editor leaves `field` out of the text (the studio's prompt pane), for readers of a source. */
export function editedBeside(kind: DocumentKind): readonly string[] {
  return EDITED_BESIDE[kind] ?? [];
}
