import type { LintOptions } from './index';
import type { ParsedDocument } from './parse-document';
import type { Diagnostic } from './types';

// Placeholder until the surface linter lands.
export function lintSurface(_parsed: ParsedDocument, _options: LintOptions): Diagnostic[] {
  return [];
}
