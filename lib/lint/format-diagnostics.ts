import type { Diagnostic, Severity, SourceRange } from './types';

/**
 * Diagnostics of several files as people and scripts read them: one compiler-style line each
 * (`file:line:col severity CODE message`, which editors and CI logs turn into links), a summary,
 * or JSON. Pure string building, shared by the CLI and anything else that prints findings.
 */

export interface FileDiagnostic extends Diagnostic {
  /** The file as the user named it; relative paths stay relative. */
  file: string;
  /**
   * For `target: 'prompt'`: where the finding is in the file (its exact place when that can be
   * known, else the whole prompt), since the diagnostic's own range is inside the prompt text.
   */
  promptAt?: SourceRange;
}

const ORDER: Record<Severity, number> = { error: 0, warning: 1, info: 2 };

/**
 * Document text ends up in messages (keys, values). A terminal must print it, not obey it: an
 * escape sequence hidden in a contract could otherwise rewrite what the reader sees.
 */
export function printable(text: string): string {
  let out = '';
  for (const char of text) {
    const code = char.charCodeAt(0);
    // C0/C1 controls, line/paragraph separators and bidi overrides ("Trojan Source").
    const control =
      code < 0x20 ||
      (code >= 0x7f && code <= 0x9f) ||
      code === 0x2028 ||
      code === 0x2029 ||
      (code >= 0x202a && code <= 0x202e) ||
      (code >= 0x2066 && code <= 0x2069);
    if (!control) out += char;
    else if (char === '\n' || char === '\r' || char === '\t') out += ' ';
    else out += `\\u${code.toString(16).padStart(4, '0')}`;
  }
  return out;
}

/** Where a diagnostic sits in its file: its range, or for prompt findings the prompt's. */
export function fileRange(diagnostic: FileDiagnostic): SourceRange | undefined {
  return diagnostic.target === 'prompt' ? diagnostic.promptAt : diagnostic.range;
}

/** The message, plus the position inside the prompt for prompt findings. */
export function fullMessage(diagnostic: Diagnostic): string {
  if (diagnostic.target !== 'prompt') return diagnostic.message;
  return `${diagnostic.message} (system prompt, line ${diagnostic.range.startLine}, column ${diagnostic.range.startColumn})`;
}

export function formatDiagnosticLine(diagnostic: FileDiagnostic): string {
  const at = fileRange(diagnostic) ?? { startLine: 1, startColumn: 1 };
  return printable(
    `${diagnostic.file}:${at.startLine}:${at.startColumn} ${diagnostic.severity} ${diagnostic.code} ${fullMessage(diagnostic)}`,
  );
}

export function formatDiagnosticsText(diagnostics: readonly FileDiagnostic[]): string {
  return diagnostics.map(formatDiagnosticLine).join('\n');
}

function plural(count: number, word: string): string {
  return `${count} ${word}${count === 1 ? '' : 's'}`;
}

/** `2 errors, 1 warning in 3 files`, or `No problems in 3 files.` */
export function formatSummary(diagnostics: readonly FileDiagnostic[], fileCount: number): string {
  const counts: Record<Severity, number> = { error: 0, warning: 0, info: 0 };
  for (const d of diagnostics) counts[d.severity] += 1;
  const files = plural(fileCount, 'file');
  if (diagnostics.length === 0) return `No problems in ${files}.`;
  const parts = (Object.keys(ORDER) as Severity[]).filter((s) => counts[s] > 0).map((s) => plural(counts[s], s === 'info' ? 'note' : s));
  return `${parts.join(', ')} in ${files}.`;
}

/** One JSON array of `{file, ...diagnostic}`, in the order given. */
export function formatDiagnosticsJson(diagnostics: readonly FileDiagnostic[]): string {
  return JSON.stringify(
    diagnostics.map((d) => ({
      file: d.file,
      code: d.code,
      severity: d.severity,
      message: d.message,
      path: d.path,
      range: d.range,
      target: d.target,
    })),
    null,
    2,
  );
}
