import { DRAFT_MEDIA_TYPE, type DocumentSource } from '@/lib/documents/document-source';
import type { Diagnostic, DocumentKind } from '@/lib/lint/types';
import type { StudioVersion } from './types';
import { isJsonObject } from '../../lib/json';
import { pageTenantHeaders } from '@/components/page-tenant';

/**
 * The studio's calls to a document kind's HTTP API (contracts, policies and surfaces have the
 * same routes). Same-origin fetches: the session cookie authenticates them. The contracts API
 * names a document's id `tool` (a contract's id is its tool's id) and the others `id`; the
 * wire format stays as agents and the SDK know it, so both are read here.
 */

export interface ApiFailure {
  status: number;
  code: string;
  message: string;
  /** Problems the server listed: lint diagnostics (409 LINT_ERRORS) or schema problems (422). */
  diagnostics: Diagnostic[];
  problems: string[];
}

export type ApiResult<T> = { ok: true; value: T } | { ok: false; failure: ApiFailure };

const LIST_KEY: Record<DocumentKind, string> = { contract: 'contracts', policy: 'policies', surface: 'surfaces' };

function record(value: unknown): Record<string, unknown> {
  return isJsonObject(value) ? (value as Record<string, unknown>) : {};
}

function isDiagnostic(value: unknown): value is Diagnostic {
  const d = record(value);
  const range = record(d.range);
  return (
    typeof d.code === 'string' &&
    typeof d.message === 'string' &&
    ['error', 'warning', 'info'].includes(String(d.severity)) &&
    typeof range.startLine === 'number' &&
    typeof range.startColumn === 'number'
  );
}

/** Reads the error envelope `{error: {code, message, details}}` into something to show. */
export function describeFailure(status: number, body: unknown): ApiFailure {
  const error = record(record(body).error);
  const details = record(error.details);
  const rawDiagnostics = Array.isArray(error.diagnostics)
    ? error.diagnostics
    : Array.isArray(details.diagnostics)
      ? details.diagnostics
      : [];
  const diagnostics = rawDiagnostics
    .filter(isDiagnostic)
    .slice(0, 500)
    .map((d) => ({
      ...d,
      path: typeof d.path === 'string' ? d.path : '$',
      target: d.target === 'prompt' ? ('prompt' as const) : ('document' as const),
      range: { ...d.range, endLine: d.range.endLine ?? d.range.startLine, endColumn: d.range.endColumn ?? d.range.startColumn + 1 },
    }));
  const problems = (Array.isArray(details.problems) ? details.problems : [])
    .slice(0, 50)
    .map((p) => record(p))
    .map((p) => [p.path, p.message].filter((x) => typeof x === 'string' && x !== '').join(': '))
    .filter((p) => p !== '');
  const code = typeof error.code === 'string' ? error.code : `http_${status}`;
  const message = typeof error.message === 'string' && error.message !== '' ? error.message : `The server answered ${status}.`;
  return { status, code, message, diagnostics, problems };
}

/** A same-origin call to the API; `read` turns a 2xx body into the answer, anything else is a failure to show. */
export async function call<T>(url: string, init: RequestInit, read: (body: unknown) => T): Promise<ApiResult<T>> {
  let response: Response;
  try {
    response = await fetch(url, {
      ...init,
      credentials: 'same-origin',
      headers: {
        accept: 'application/json',
        ...(init.body ? { 'content-type': 'application/json' } : {}),
        ...pageTenantHeaders(),
        ...init.headers,
      },
    });
  } catch (error) {
    return {
      ok: false,
      failure: {
        status: 0,
        code: 'network',
        message: `Could not reach Toolgate: ${error instanceof Error ? error.message : String(error)}`,
        diagnostics: [],
        problems: [],
      },
    };
  }
  let body: unknown;
  try {
    body = await response.json();
  } catch {
    body = undefined;
  }
  if (!response.ok) return { ok: false, failure: describeFailure(response.status, body) };
  return { ok: true, value: read(body) };
}

const segment = encodeURIComponent;

export interface SavedDraft {
  id: string;
  version: string;
  created: boolean;
  contentHash: string;
}

/**
 * Saves a draft; with `source`, the text it was written as is kept beside it (DRAFT_MEDIA_TYPE),
 * with `expectedContentHash` the hash of the draft the edit started from (null: the version had
 * none), so a save over another tab's or author's newer one is refused (409) rather than lost.
 */
export function saveDraft(
  apiBase: string,
  document: unknown,
  source?: DocumentSource,
  expectedContentHash?: string | null,
): Promise<ApiResult<SavedDraft>> {
  const expected = expectedContentHash === undefined ? {} : { expected_content_hash: expectedContentHash };
  const init: RequestInit = source
    ? { method: 'POST', body: JSON.stringify({ document, source, ...expected }), headers: { 'content-type': DRAFT_MEDIA_TYPE } }
    : { method: 'POST', body: JSON.stringify(document) };
  return call(apiBase, init, (body) => {
    const b = record(body);
    return {
      id: String(b.tool ?? b.id ?? ''),
      version: String(b.version ?? ''),
      created: b.created === true,
      contentHash: String(b.contentHash ?? ''),
    };
  });
}

/** `shadow`: freeze the version and evaluate it beside the served one, deciding nothing. */
export function publishVersion(
  apiBase: string,
  id: string,
  version: string,
  changeNote: string,
  mode: 'enforce' | 'shadow' = 'enforce',
  /** The text the author saw (their last save): another one is refused (409) rather than published. */
  expectedContentHash?: string,
): Promise<ApiResult<{ version: string }>> {
  const note = changeNote.trim();
  const body = {
    ...(note ? { change_note: note } : {}),
    ...(mode === 'shadow' ? { mode } : {}),
    ...(expectedContentHash ? { expected_content_hash: expectedContentHash } : {}),
  };
  return call(
    `${apiBase}/${segment(id)}/versions/${segment(version)}/publish`,
    { method: 'POST', body: JSON.stringify(body) },
    (answer) => ({ version: String(record(answer).version ?? version) }),
  );
}

export function fetchVersionDocument(apiBase: string, id: string, version: string): Promise<ApiResult<unknown>> {
  return call(`${apiBase}/${segment(id)}/versions/${segment(version)}`, { method: 'GET' }, (body) => record(body).document);
}

export interface VersionList {
  versions: StudioVersion[];
  servedVersion: string | null;
}

/** The versions of one document, newest first, and the version the runtime serves. */
export function fetchVersions(apiBase: string, kind: DocumentKind, id: string): Promise<ApiResult<VersionList>> {
  return call(apiBase, { method: 'GET' }, (body) => {
    const list = record(body)[LIST_KEY[kind]];
    const entry = record(
      (Array.isArray(list) ? list : []).find((item) => {
        const r = record(item);
        return (r.tool ?? r.id) === id;
      }),
    );
    const versions = (Array.isArray(entry.versions) ? entry.versions : []).map((v) => {
      const r = record(v);
      return {
        version: String(r.version ?? ''),
        status: String(r.status ?? ''),
        contentHash: String(r.contentHash ?? ''),
        publishedAt: typeof r.publishedAt === 'string' ? r.publishedAt : null,
        changeNote: typeof r.changeNote === 'string' ? r.changeNote : null,
      };
    });
    return { versions, servedVersion: typeof entry.latestVersion === 'string' ? entry.latestVersion : null };
  });
}

/** One recorded call whose outcome the draft would change (`before`/`after`: error codes, none = passes). */
export interface ImpactChange {
  evidenceId: string;
  callId: string;
  /** ISO time the call was recorded. */
  at: string;
  before: string[];
  after: string[];
}

/** The answer of `POST {apiBase}/{id}/impact` (see lib/contracts/impact-preview.ts). */
export interface ImpactResult {
  tool: string;
  replayed: number;
  notReplayable: number;
  withoutArguments: number;
  withoutContext: number;
  changed: number;
  newlyRefused: number;
  newlyPassing: number;
  codes: { code: string; added: number; removed: number }[];
  examples: ImpactChange[];
}

const count = (value: unknown) => (typeof value === 'number' && Number.isFinite(value) && value >= 0 ? Math.floor(value) : 0);
const codes = (value: unknown) => (Array.isArray(value) ? value.filter((c): c is string => typeof c === 'string').slice(0, 100) : []);

/** Reads an impact answer without trusting its shape: missing counts are 0, junk entries dropped. */
export function readImpact(body: unknown): ImpactResult {
  const b = record(body);
  return {
    tool: String(b.tool ?? ''),
    replayed: count(b.replayed),
    notReplayable: count(b.notReplayable),
    withoutArguments: count(b.withoutArguments),
    withoutContext: count(b.withoutContext),
    changed: count(b.changed),
    newlyRefused: count(b.newlyRefused),
    newlyPassing: count(b.newlyPassing),
    codes: (Array.isArray(b.codes) ? b.codes : [])
      .map(record)
      .filter((c) => typeof c.code === 'string')
      .slice(0, 200)
      .map((c) => ({ code: String(c.code), added: count(c.added), removed: count(c.removed) })),
    examples: (Array.isArray(b.examples) ? b.examples : [])
      .map(record)
      .filter((e) => typeof e.callId === 'string' && typeof e.at === 'string')
      .slice(0, 50)
      .map((e) => ({
        evidenceId: String(e.evidenceId ?? ''),
        callId: String(e.callId),
        at: String(e.at),
        before: codes(e.before),
        after: codes(e.after),
      })),
  };
}

/** Replays `document` (a contract draft, saved or not) against the tenant's recent recorded calls of its tool. */
export function previewImpact(apiBase: string, id: string, document: unknown): Promise<ApiResult<ImpactResult>> {
  return call(`${apiBase}/${segment(id)}/impact`, { method: 'POST', body: JSON.stringify(document) }, readImpact);
}
