import type { z } from 'zod';
import { hasOwn, isPlainObject } from '../json';
import { ownValue } from '../validation/json-path';
import type { PathSegment } from './parse-document';
import { diagnosticAt, fieldName, quote, type Locate } from './rules/report';
import { schemaIssueMessage } from './semver';
import type { Diagnostic, Severity } from './types';

/**
 * A document's conformance to its Zod schema, as diagnostics: the format rule of contracts and
 * policies. Reads untrusted data through own-property access only.
 */

function issuePath(path: readonly PropertyKey[]): PathSegment[] {
  return path.map((segment) => (typeof segment === 'symbol' ? String(segment) : segment));
}

function valueAt(root: unknown, path: readonly PathSegment[]): unknown {
  let current = root;
  for (const segment of path) {
    if (Array.isArray(current) && typeof segment === 'number') current = current[segment];
    else current = ownValue(current, String(segment));
    if (current === undefined) return undefined;
  }
  return current;
}

/**
 * One diagnostic per Zod issue, at its path: unknown keys underline the key itself, a missing
 * field underlines its parent's key, a record key with a bad name underlines that key.
 */
export function conformanceDiagnostics(
  issues: readonly z.core.$ZodIssue[],
  root: unknown,
  locate: Locate,
  code: string,
  severity: Severity = 'error',
): Diagnostic[] {
  const out: Diagnostic[] = [];
  for (const issue of issues.slice(0, 200)) {
    const path = issuePath(issue.path);
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys.slice(0, 50)) {
        out.push(diagnosticAt(locate, code, severity, `Unknown field ${quote(key)} in ${fieldName(path)}.`, [...path, key], 'key'));
      }
      continue;
    }
    if (issue.code === 'invalid_key') {
      const inner = issue.issues[0]?.message ?? issue.message;
      out.push(diagnosticAt(locate, code, severity, `${fieldName(path)}: invalid key: ${inner}`, path, 'key'));
      continue;
    }
    const last = path[path.length - 1];
    const parent = path.length > 0 ? valueAt(root, path.slice(0, -1)) : undefined;
    if (typeof last === 'string' && isPlainObject(parent) && !hasOwn(parent, last)) {
      const missing = diagnosticAt(
        locate,
        code,
        severity,
        `Missing required field ${quote(last)} in ${fieldName(path.slice(0, -1))}.`,
        path,
      );
      // An array item has no key to underline; its first key stands in for the whole item.
      const [firstKey] = Object.keys(parent);
      const inItem = typeof path[path.length - 2] === 'number' && firstKey !== undefined;
      out.push(inItem ? { ...missing, range: locate([...path.slice(0, -1), firstKey], 'key') } : missing);
      continue;
    }
    out.push(diagnosticAt(locate, code, severity, `${fieldName(path)}: ${schemaIssueMessage(issue)}`, path));
  }
  return out;
}
