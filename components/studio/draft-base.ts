import type { StudioVersion } from './types';

/**
 * The `expected_content_hash` a studio save sends (docs/studio.md): the draft the author's edit
 * started from. The editor knows the drafts of the document it opened: the one it loaded or last
 * saved (`base`), else the version as listed when the page loaded, and null when that version had
 * no draft. A document it did not open (a "new" page, or `id` edited to another document's) it
 * started with no draft of either, so null too: a draft someone else keeps there is refused (409)
 * instead of replaced unseen. Undefined, no check, only when the document names no version.
 */
export function expectedDraftHash(options: {
  /** The document the page opened; undefined on a "new" page. */
  openedId: string | undefined;
  /** The `id` and `version` of the document being saved. */
  id: string | undefined;
  version: string | undefined;
  base: { version: string; contentHash: string } | null;
  versions: readonly StudioVersion[];
}): string | null | undefined {
  const { openedId, id, version, base, versions } = options;
  if (version === undefined) return undefined;
  if (openedId === undefined || id !== openedId) return null;
  if (base?.version === version) return base.contentHash;
  const listed = versions.find((v) => v.version === version);
  return listed?.status === 'draft' ? listed.contentHash : null;
}
