import type { Diagnostic } from '@/lib/lint/types';
import { monaco } from './monaco-setup';

/** Diagnostics from the live linter in the worker. */
export const MARKER_OWNER = 'toolgate';
/** Diagnostics the server sent with a refused publish; they stand until the next edit. */
export const SERVER_MARKER_OWNER = 'toolgate-server';

const SEVERITY = { error: monaco.MarkerSeverity.Error, warning: monaco.MarkerSeverity.Warning, info: monaco.MarkerSeverity.Info } as const;

export function toMarker(d: Diagnostic): monaco.editor.IMarkerData {
  const { startLine, startColumn, endLine, endColumn } = d.range;
  // An empty range draws no underline; widen it to one character.
  const empty = endLine < startLine || (endLine === startLine && endColumn <= startColumn);
  return {
    severity: SEVERITY[d.severity],
    code: d.code,
    message: d.message,
    source: 'toolgate',
    startLineNumber: startLine,
    startColumn,
    endLineNumber: empty ? startLine : endLine,
    endColumn: empty ? startColumn + 1 : endColumn,
  };
}

export function documentVersion(value: unknown): string | undefined {
  return stringField(value, 'version');
}

export function documentIdOf(value: unknown): string | undefined {
  return stringField(value, 'id');
}

function stringField(value: unknown, key: string): string | undefined {
  const field = typeof value === 'object' && value !== null ? (value as Record<string, unknown>)[key] : undefined;
  return typeof field === 'string' ? field : undefined;
}
