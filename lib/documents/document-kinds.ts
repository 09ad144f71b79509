import { SEMVER_MESSAGE } from '@toolgate/sdk/core';
import { SEMVER_PATTERN } from '../contracts/contract-schema';
import { isJsonObject } from '../json';

/**
 * The kinds that share the StudioDocument tables (`kind` keeps them apart) and the studio's
 * list, new and editor pages. Contracts are a document kind too (lib/documents/kinds) but keep
 * their own tables and pages.
 */
export type StudioDocumentKind = 'policy' | 'surface';

/** A policy's or surface's `id` (a contract's id is its tool's id, TOOL_ID_PATTERN). */
export const DOCUMENT_NAME_PATTERN = /^[a-z][a-z0-9_.-]*$/;
export const MAX_DOCUMENT_NAME = 100;

/** Reads the `id` and `version` a draft is stored under; anything else may still be unfinished. */
export function documentKey(document: unknown): { id: string; version: string; description: string | null } | { problem: string } {
  if (!isJsonObject(document)) return { problem: 'The document must be an object.' };
  const { id, version, description } = document;
  if (typeof id !== 'string' || id.length > MAX_DOCUMENT_NAME || !DOCUMENT_NAME_PATTERN.test(id)) {
    return { problem: '`id` must be a lowercase name such as `support-default` (letters, digits, `_`, `.`, `-`; at most 100 characters).' };
  }
  if (typeof version !== 'string' || version.length > 64 || !SEMVER_PATTERN.test(version)) {
    return { problem: `\`version\`: ${SEMVER_MESSAGE}` };
  }
  return { id, version, description: typeof description === 'string' ? description.slice(0, 500) : null };
}
