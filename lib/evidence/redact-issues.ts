import { REDACTED } from './redact-arguments';

/**
 * Issues about arguments quote the value they refused (`card.last4 must match the pattern …,
 * got "4111 1111 1111 1111"`), and issues are evidence: chained, listed as violations, exported
 * as CSV, kept however retention is set. A value at a sensitive path (the contract's `sensitive`
 * and the tenant's paths, as the stored arguments are redacted) must not be kept that way, so the
 * quoted value of an issue at such a path, inside it, or above it (whose quoted value holds it) is
 * replaced. The issue keeps its code, path and what was expected.
 */

/** The quoted value every argument check's message ends with (lib/validation/ajv-issues.ts). */
const QUOTED_VALUE = /([,;] got ).*$/s;

/** `$.a.b[0]['c d']` as segments `a`, `b`, `0`, `c d`; null when it cannot be read. */
export function issuePathSegments(path: string): string[] | null {
  if (!path.startsWith('$')) return null;
  const segments: string[] = [];
  let i = 1;
  while (i < path.length) {
    if (path[i] === '.') {
      const match = /^[^.[]+/.exec(path.slice(i + 1));
      if (!match) return null;
      segments.push(match[0]);
      i += 1 + match[0].length;
    } else if (path.startsWith("['", i)) {
      const end = path.indexOf("']", i + 2);
      if (end === -1) return null;
      try {
        segments.push(JSON.parse(`"${path.slice(i + 2, end)}"`) as string);
      } catch {
        return null;
      }
      i = end + 2;
    } else if (path[i] === '[') {
      const match = /^\[(\d+)\]/.exec(path.slice(i));
      if (!match) return null;
      segments.push(match[1]!);
      i += match[0].length;
    } else return null;
  }
  return segments;
}

/** Whether one path is the other or lies inside it. */
function within(inner: readonly string[], outer: readonly string[]): boolean {
  return outer.length <= inner.length && outer.every((segment, i) => inner[i] === segment);
}

/** Whether an issue at `path` may quote a value at one of the sensitive dotted paths. */
export function touchesSensitivePath(path: string | undefined, sensitivePaths: readonly string[]): boolean {
  if (sensitivePaths.length === 0 || path === undefined) return false;
  const at = issuePathSegments(path);
  // A path that cannot be read could be anything: its value is not quoted.
  if (at === null) return true;
  return sensitivePaths.some((sensitive) => {
    const segments = sensitive.split('.');
    return within(at, segments) || within(segments, at);
  });
}

/**
 * The issues with the values they quote at sensitive paths replaced by [REDACTED], in place
 * (the same issue objects go to the answer and to evidence). Only argument checks quote values.
 */
export function redactIssueValues<T extends { path?: string; message: string; details?: Record<string, unknown> }>(
  issues: T[],
  sensitivePaths: readonly string[],
): T[] {
  if (sensitivePaths.length === 0) return issues;
  for (const issue of issues) {
    if (QUOTED_VALUE.test(issue.message) && touchesSensitivePath(issue.path, sensitivePaths))
      issue.message = issue.message.replace(QUOTED_VALUE, `$1${REDACTED}`);
    // A transform the contract refuses names the rewritten arguments' issues in its details.
    const nested = issue.details?.issues;
    if (Array.isArray(nested))
      redactIssueValues(
        nested.filter((n): n is { path?: string; message: string } => typeof n === 'object' && n !== null && typeof n.message === 'string'),
        sensitivePaths,
      );
  }
  return issues;
}
