import { formatJsonPath, ownValue } from '../../validation/json-path';
import type { ParsedDocument, PathSegment } from '../parse-document';
import type { Diagnostic, Severity, SourceRange } from '../types';

/** How rules word and place their findings, shared by every document kind. */

export type Locate = ParsedDocument['locate'];

/** Author-supplied text quoted in a message, bounded so a hostile document cannot bloat output. */
export function quote(value: unknown, max = 120): string {
  const text = typeof value === 'string' ? value : String(value);
  return JSON.stringify(text.length > max ? `${text.slice(0, max)}…` : text);
}

/** A path as authors read it in messages: `annotations.approver_roles`, `input.required[1]`. */
export function fieldName(path: readonly PathSegment[]): string {
  return path.length === 0 ? 'the document' : formatJsonPath(path).replace(/^\$\.?/, '');
}

export function diagnosticAt(
  locate: Locate,
  code: string,
  severity: Severity,
  message: string,
  path: readonly PathSegment[],
  part: 'key' | 'value' = 'value',
): Diagnostic {
  return { code, severity, message, path: formatJsonPath(path), range: locate(path, part), target: 'document' };
}

/**
 * An object member as a whole when its value is a scalar (`"maxLength": -1`, key through value),
 * else just its key, so a finding about a keyword never underlines a whole nested schema.
 */
export function memberRange(locate: Locate, root: unknown, path: readonly PathSegment[]): SourceRange {
  let value: unknown = root;
  for (const segment of path)
    value = Array.isArray(value) && typeof segment === 'number' ? value[segment] : ownValue(value, String(segment));
  const key = locate(path, 'key');
  if (typeof path[path.length - 1] !== 'string' || (typeof value === 'object' && value !== null)) return key;
  const end = locate(path, 'value');
  return { startLine: key.startLine, startColumn: key.startColumn, endLine: end.endLine, endColumn: end.endColumn };
}
