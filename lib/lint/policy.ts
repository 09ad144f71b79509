import type { LintOptions } from './index';
import type { ParsedDocument } from './parse-document';
import type { Diagnostic } from './types';

// Placeholder until the policy linter lands.
export function lintPolicy(_parsed: ParsedDocument, _options: LintOptions): Diagnostic[] {
  return [];
}
