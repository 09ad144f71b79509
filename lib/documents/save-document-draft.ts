import { db, isUniqueViolation } from '../db';
import { AppError } from '../errors';
import { storedTextProblem } from '../stored-text';
import { sha256Hex } from '../contracts/canonical-json';
import type { DocumentKind } from '../lint';
import { checkedSource, type DocumentSource } from './document-source';
import { documentKind } from './kinds';
import { draftChangedSinceLoaded } from './changed-since-loaded';

export interface SavedDraft {
  id: string;
  version: string;
  status: string;
  contentHash: string;
  /** False when an existing draft of the version was replaced. */
  created: boolean;
}

/**
 * Creates or replaces the draft of the version named in the document. Drafts are mutable; a
 * version that is already published (or shadowed, retired, deprecated) never changes, so saving
 * over it is a conflict: save it as a new version.
 */
export async function saveDocumentDraft<K extends DocumentKind>(options: {
  tenantId: string;
  kind: K;
  document: unknown;
  /** The text the author wrote it as (the studio); kept only when it reads as `document`. */
  source?: DocumentSource;
  createdById?: string;
  /**
   * The content hash of the draft the author's edit started from (the studio sends it), or null
   * when they started a version that had no draft: a draft that is not that now is someone
   * else's newer save, and saving over it would lose it (409, reason changed_since_loaded).
   * Undefined: no check (API clients that write whole documents).
   */
  expectedContentHash?: string | null;
}): Promise<SavedDraft> {
  const spec = documentKind(options.kind);
  const draft = spec.readDraft(options.document);
  // Kept in text columns beside the document (a description, a contract's owner), which the
  // document's JSON would have escaped: what a text column cannot keep as sent is refused.
  for (const [field, value] of Object.entries(draft.columns)) {
    const problem = typeof value === 'string' ? storedTextProblem(`\`${field}\``, value) : null;
    if (problem) throw new AppError('bad_request', `${problem}.`, { [spec.apiIdField]: draft.id, field });
  }
  const contentHash = sha256Hex(draft.text);
  const source = options.source ? checkedSource(options.kind, options.document, options.source, (d) => spec.readDraft(d).text) : null;
  const sourceFields = { source: source?.text ?? null, sourceFormat: source?.format ?? null };
  const ref = { tenantId: options.tenantId, kind: options.kind, id: draft.id };

  const saved = (row: { version: string; status: string; contentHash: string }, created: boolean): SavedDraft => ({
    id: draft.id,
    version: row.version,
    status: row.status,
    contentHash: row.contentHash,
    created,
  });
  const saveOnce = () =>
    db().$transaction(async (tx) => {
      const owner = await spec.store.ensureOwner(tx, ref, draft.columns);
      const existing = await spec.store.findVersion(tx, owner.rowId, draft.version);
      const frozen = (status: string) =>
        new AppError(
          'conflict',
          `${spec.label(draft.id, draft.version)} is already ${status} and cannot change; save it as a new version.`,
          {
            [spec.apiIdField]: draft.id,
            version: draft.version,
            status,
          },
        );
      if (existing && existing.status !== 'draft') throw frozen(existing.status);
      const expected = options.expectedContentHash;
      const label = spec.label(draft.id, draft.version);
      if (expected !== undefined && (existing?.contentHash ?? null) !== expected)
        throw draftChangedSinceLoaded(label, existing?.contentHash ?? null, expected);
      if (existing) {
        // Only while it is still a draft: a publish may have frozen it since it was read
        // (PostgreSQL reads committed rows, so the read above does not hold it).
        const updated = await spec.store.updateDraft(
          tx,
          existing.rowId,
          { document: draft.text, contentHash, ...sourceFields, createdById: options.createdById ?? existing.createdById },
          // Still the text read above: a save that committed in between is not overwritten.
          expected !== undefined ? existing.contentHash : undefined,
        );
        if (!updated) {
          const now = await spec.store.findVersion(tx, owner.rowId, draft.version);
          if (now?.status === 'draft') throw draftChangedSinceLoaded(label, now.contentHash, expected);
          throw frozen(now?.status ?? 'published');
        }
        return saved(updated, false);
      }
      return saved(
        await spec.store.insertDraft(tx, owner.rowId, {
          tenantId: options.tenantId,
          version: draft.version,
          document: draft.text,
          contentHash,
          ...sourceFields,
          createdById: options.createdById ?? null,
        }),
        true,
      );
    });

  // Two first saves of a document or a version at once both find nothing and both insert; the
  // one refused by the unique key saves again, over the draft the other made (as one after the
  // other would have).
  try {
    return await saveOnce();
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
    return saveOnce();
  }
}
