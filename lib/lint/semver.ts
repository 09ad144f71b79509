import semver, { type SemVer } from 'semver';
import type { z } from 'zod';
import { SEMVER_MESSAGE, SEMVER_PATTERN } from '@toolgate/sdk/core';

/**
 * Document versions: their order, and what an author is told when one is not a version.
 *
 * Every version saved today matches SEMVER_PATTERN, which `semver` reads strictly. Rows saved
 * before the pattern followed SemVer 2.0.0 exactly may hold versions it refuses (`1.0.0-01`, and
 * strict `semver.gt` throws on them), so stored versions are ordered here, never with `semver`
 * directly: such a version is read loosely (`1.0.0-01` as `1.0.0-1`), and one that cannot be read
 * even so comes before every other. A document stuck on one can always move on to a real version.
 */

const SEMVER_PATTERN_TEXT = String(SEMVER_PATTERN);

function orderable(version: string): SemVer | null {
  return semver.parse(version) ?? semver.parse(version, { loose: true });
}

/** Negative when `a` comes before `b`, zero when they are equal in order, positive after. */
export function compareVersions(a: string, b: string): number {
  const left = orderable(a);
  const right = orderable(b);
  if (left && right) return left.compare(right);
  if (left) return 1;
  if (right) return -1;
  return 0;
}

/** Whether `version` orders after `than`; never throws, whatever either holds. */
export function isNewerVersion(version: string, than: string): boolean {
  return compareVersions(version, than) > 0;
}

/**
 * The message for a schema issue: a version that does not match SEMVER_PATTERN is told what a
 * version looks like (the policy and surface schemas leave Zod's "must match pattern /…/").
 */
export function schemaIssueMessage(issue: z.core.$ZodIssue): string {
  return issue.code === 'invalid_format' && issue.format === 'regex' && issue.pattern === SEMVER_PATTERN_TEXT
    ? SEMVER_MESSAGE
    : issue.message;
}
