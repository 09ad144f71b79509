import { formatJsonPath } from '../../validation/json-path';
import type { ParsedDocument, PathSegment } from '../parse-document';
import type { Diagnostic, Severity } from '../types';

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
