import type { Diagnostic, DocumentFormat, DocumentKind } from '@/lib/lint/types';

/** One stored version of a document, as the list endpoints return it (dates as ISO strings). */
export interface StudioVersion {
  version: string;
  status: 'draft' | 'published' | 'deprecated' | (string & {});
  contentHash: string;
  publishedAt: string | null;
  changeNote: string | null;
}

/** What the linter needs beyond the text; the same fields as `lintDocument`'s options. */
export interface StudioLintContext {
  /** Surfaces: published contracts that `{contract: "<tool id>"}` entries refer to. */
  contracts?: readonly unknown[];
  /** The version the runtime serves now, so a version that goes backwards is flagged. */
  previousVersion?: string;
}

/** A surface's system prompt, edited beside the document and linted with it. */
export interface StudioPrompt {
  /** Top-level member of the document that holds the prompt (written into it on save). */
  field: string;
  initialText: string;
}

/**
 * Props of `<StudioEditor>`, the one editor for contracts, policies and surfaces. Pages load
 * the data on the server and pass it in; the editor talks to the document's HTTP API itself.
 */
export interface StudioEditorProps {
  kind: DocumentKind;
  /** The document kind's API, e.g. `/api/v1/contracts`; the editor uses `GET {apiBase}`,
   *  `POST {apiBase}`, `GET {apiBase}/{id}/versions/{v}` and `POST …/publish`. */
  apiBase: string;
  /** Dashboard path of the kind, e.g. `/contracts`; editor pages are `{pageBase}/{id}`. */
  pageBase: string;
  /** The document's `id` (a contract's is its tool's id); absent on a "new" page until the first save. */
  documentId?: string;
  /** The version shown in the editor, when it is a stored one. */
  loadedVersion?: string;
  initialText: string;
  initialFormat: DocumentFormat;
  /** Viewers get a read-only editor, no buttons, and `readOnlyReason` says why. */
  readOnly: boolean;
  readOnlyReason?: string;
  /** JSON Schema of the document format, for completions and hover docs (JSON and YAML). */
  jsonSchema?: Record<string, unknown>;
  lintContext?: StudioLintContext;
  /** Stored versions, newest first. */
  versions: readonly StudioVersion[];
  /** The version the runtime serves when a call does not pin one. */
  servedVersion: string | null;
  prompt?: StudioPrompt;
}

/** A diagnostic shown in the problems panel, with where it came from. */
export interface StudioProblem extends Diagnostic {
  source: 'live' | 'server';
}

/** Stored versions as the studio takes them: plain JSON, dates as ISO strings. */
export function studioVersions(
  versions: readonly { version: string; status: string; contentHash: string; publishedAt: Date | null; changeNote: string | null }[],
): StudioVersion[] {
  return versions.map((v) => ({
    version: v.version,
    status: v.status,
    contentHash: v.contentHash,
    publishedAt: v.publishedAt?.toISOString() ?? null,
    changeNote: v.changeNote,
  }));
}
