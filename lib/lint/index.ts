import { parseDocument } from './parse-document';
import { lintContract } from './contract';
import { lintPolicy } from './policy';
import { lintSurface } from './surface';
import { hasErrors, type DocumentKind, type LintOptions, type LintResult } from './types';

export * from './types';
export { parseDocument, detectFormat, MAX_DOCUMENT_CHARS } from './parse-document';
export { lintRulesMarkdown } from './rules/docs-table';

/**
 * The one linter. Plain TypeScript with no Node-only or React imports: the studio runs it in a
 * web worker on every keystroke, `POST /api/v1/lint` and publish run it on the server, and the
 * CLI runs it on files.
 */
export function lintDocument(kind: DocumentKind, text: string, options: LintOptions = {}): LintResult {
  const parsed = parseDocument(text, options.format);
  if (parsed.value === undefined) return { valid: false, diagnostics: parsed.diagnostics };
  const found =
    kind === 'contract' ? lintContract(parsed, options) : kind === 'policy' ? lintPolicy(parsed, options) : lintSurface(parsed, options);
  const diagnostics = [...parsed.diagnostics, ...found].sort(
    (a, b) => a.range.startLine - b.range.startLine || a.range.startColumn - b.range.startColumn || a.code.localeCompare(b.code),
  );
  return { valid: !hasErrors(diagnostics), diagnostics, value: parsed.value };
}
