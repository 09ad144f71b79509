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

/**
 * SemVer 2.0.0 §11.4 for pre-release identifiers: numeric ones compare as numbers, exactly. The
 * `semver` package compares them as doubles, so past 2^53 two different numbers were equal:
 * 1.0.0-100000000000000000000 was refused as not greater than 1.0.0-99999999999999999999.
 */
function compareIdentifiers(a: string | number, b: string | number): number {
  const [left, right] = [String(a), String(b)];
  const leftNumeric = /^\d+$/.test(left);
  const rightNumeric = /^\d+$/.test(right);
  if (leftNumeric && rightNumeric) {
    const [x, y] = [BigInt(left), BigInt(right)];
    return x < y ? -1 : x > y ? 1 : 0;
  }
  if (leftNumeric) return -1;
  if (rightNumeric) return 1;
  return left < right ? -1 : left > right ? 1 : 0;
}

function comparePrerelease(a: SemVer, b: SemVer): number {
  // A version without a pre-release comes after one with one (1.0.0-rc.1 < 1.0.0).
  if (a.prerelease.length === 0 || b.prerelease.length === 0) return b.prerelease.length - a.prerelease.length;
  for (let i = 0; i < Math.max(a.prerelease.length, b.prerelease.length); i++) {
    if (i >= a.prerelease.length) return -1;
    if (i >= b.prerelease.length) return 1;
    const order = compareIdentifiers(a.prerelease[i]!, b.prerelease[i]!);
    if (order !== 0) return order;
  }
  return 0;
}

/** Negative when `a` comes before `b`, zero when they are equal in order, positive after. */
export function compareVersions(a: string, b: string): number {
  const left = orderable(a);
  const right = orderable(b);
  if (left && right) return left.compareMain(right) || comparePrerelease(left, right);
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
