import { z } from 'zod';
import { DocumentSourceSchema, DRAFT_MEDIA_TYPE, type DocumentSource } from '../../documents/document-source';
import { AppError } from '../../errors';
import { plainObject, type JsonObject } from '../../json';
import { storedTextSchema } from '../../stored-text';
import type { IncomingCall } from '../incoming-call';
import { zodIssueText } from '../../validation/zod-issue-text';

/**
 * The body of `POST /api/v1/{contracts,policies,surfaces}`. Agents and the SDK send the document
 * itself as `application/json`; the studio sends `{document, source}` as DRAFT_MEDIA_TYPE, so the
 * text the author wrote (JSON or YAML, in their order) is kept beside the canonical document.
 */
export { DRAFT_MEDIA_TYPE };

/** A content hash as the studio sends it back (lowercase hex SHA-256): the text its save or publish is based on. */
const ContentHash = z.string().regex(/^[0-9a-f]{64}$/, 'must be a content hash (64 lowercase hex digits)');

/** The publish body's `change_note` (contracts, policies and surfaces alike), kept as sent in a text column. */
export const PublishChangeNote = storedTextSchema('change_note', 2000).optional();

/** The publish body's `expected_content_hash` (contracts, policies and surfaces alike). */
export const PublishExpectedContentHash = ContentHash.optional().describe(
  'The contentHash the author saw: publishing another text is refused (409, reason changed_since_loaded).',
);

const DraftEnvelopeSchema = z
  .object({
    document: plainObject('The document.'),
    source: DocumentSourceSchema,
    expected_content_hash: ContentHash.nullable()
      .optional()
      .describe(
        'The contentHash of the draft the edit started from, or null when the version had no draft: 409 changed_since_loaded otherwise.',
      ),
  })
  .strict();

export function draftBodyDescription(document: string): string {
  return `${document} Sent as ${DRAFT_MEDIA_TYPE} instead, the body is {document, source: {format: json|yaml, text}, expected_content_hash?}: the text the document was written as, kept for the studio when it reads as the document, and the contentHash of the draft the edit started from (null: the version had no draft), so a save over someone else's newer one is refused (409, reason changed_since_loaded).`;
}

export function readDraftBody(
  call: IncomingCall,
  body: JsonObject,
): { document: JsonObject; source?: DocumentSource; expectedContentHash?: string | null } {
  const type = (call.header('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
  if (type !== DRAFT_MEDIA_TYPE) return { document: body };
  const envelope = DraftEnvelopeSchema.safeParse(body);
  if (!envelope.success) {
    throw new AppError('bad_request', `Invalid draft body: ${zodIssueText(envelope.error.issues[0])}`);
  }
  return { document: envelope.data.document, source: envelope.data.source, expectedContentHash: envelope.data.expected_content_hash };
}
