import type { Diagnostic, DocumentKind, LintOptions } from '@/lib/lint';

/** Messages between the studio and its lint worker. `id` orders requests: older answers lose. */
export interface LintRequest {
  id: number;
  kind: DocumentKind;
  text: string;
  options: LintOptions;
}

export type LintResponse = { id: number; ok: true; diagnostics: Diagnostic[]; millis: number } | { id: number; ok: false; message: string };
