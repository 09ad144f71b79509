import { SEMVER_PATTERN } from '../contracts/contract-schema';

/**
 * Policies and tool surfaces are authored, versioned and published the same way, so one store
 * (`StudioDocument`) serves both; `kind` keeps them apart. Contracts predate it and keep their
 * own tables, because the runtime resolves them on every call.
 */
export const STUDIO_DOCUMENT_KINDS = ['policy', 'surface'] as const;
export type StudioDocumentKind = (typeof STUDIO_DOCUMENT_KINDS)[number];

export const DOCUMENT_NAME_PATTERN = /^[a-z][a-z0-9_.-]*$/;
export const MAX_DOCUMENT_NAME = 100;

export const KIND_LABELS: Record<StudioDocumentKind, { one: string; many: string; changeKey: 'policies' | 'surfaces' }> = {
  policy: { one: 'policy', many: 'policies', changeKey: 'policies' },
  surface: { one: 'surface', many: 'surfaces', changeKey: 'surfaces' },
};

export function isStudioDocumentKind(value: string): value is StudioDocumentKind {
  return (STUDIO_DOCUMENT_KINDS as readonly string[]).includes(value);
}

/** Reads the `id` and `version` a draft is stored under; anything else may still be unfinished. */
export function documentKey(document: unknown): { name: string; version: string; description: string | null } | { problem: string } {
  if (typeof document !== 'object' || document === null || Array.isArray(document)) return { problem: 'The document must be an object.' };
  const { id, version, description } = document as Record<string, unknown>;
  if (typeof id !== 'string' || id.length > MAX_DOCUMENT_NAME || !DOCUMENT_NAME_PATTERN.test(id)) {
    return { problem: '`id` must be a lowercase name such as `support-default` (letters, digits, `_`, `.`, `-`; at most 100 characters).' };
  }
  if (typeof version !== 'string' || version.length > 64 || !SEMVER_PATTERN.test(version)) {
    return { problem: '`version` must be a semantic version such as `1.0.0`.' };
  }
  return { name: id, version, description: typeof description === 'string' ? description.slice(0, 500) : null };
}
