import { formatJsonPath } from '../../validation/json-path';
import type { ParsedDocument, PathSegment } from '../parse-document';
import type { Diagnostic, Severity, SourceRange } from '../types';
import type { CodeRegistry } from './registry';

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

/** Builds one rule's diagnostics, taking each code's severity from the rule's own codes. */
export interface Report<Codes extends CodeRegistry> {
  /** A finding at `path` in the document, underlining the member's key or its value. */
  (code: keyof Codes & string, message: string, path: readonly PathSegment[], part?: 'key' | 'value'): Diagnostic;
  /** A finding in a surface's system prompt (`$.system`), at `range` in the prompt's own text. */
  inPrompt(code: keyof Codes & string, message: string, range: SourceRange): Diagnostic;
}

export function reporterFor<Codes extends CodeRegistry>(codes: Codes, locate: Locate): Report<Codes> {
  const report = (code: keyof Codes & string, message: string, path: readonly PathSegment[], part: 'key' | 'value' = 'value'): Diagnostic =>
    diagnosticAt(locate, code, codes[code]!.severity, message, path, part);
  const inPrompt = (code: keyof Codes & string, message: string, range: SourceRange): Diagnostic => ({
    code,
    severity: codes[code]!.severity,
    message,
    path: formatJsonPath(['system']),
    range,
    target: 'prompt',
  });
  return Object.assign(report, { inPrompt });
}
