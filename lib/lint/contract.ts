import type { LintOptions } from './index';
import type { ParsedDocument } from './parse-document';
import type { Diagnostic } from './types';

// Placeholder until the contract linter lands.
export function lintContract(_parsed: ParsedDocument, _options: LintOptions): Diagnostic[] {
  return [];
}
