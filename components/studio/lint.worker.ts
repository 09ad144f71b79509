import { lintDocument } from '@/lib/lint';
import type { LintRequest, LintResponse } from './lint-protocol';

// The linter runs here, off the UI thread, so a slow document never delays a keystroke. Only
// the diagnostics go back: the parsed value would cost a structured clone nobody reads.
const scope = self as unknown as {
  onmessage: ((event: MessageEvent<LintRequest>) => void) | null;
  postMessage(message: LintResponse): void;
};

scope.onmessage = (event) => {
  const { id, kind, text, options } = event.data;
  const started = performance.now();
  try {
    const { diagnostics } = lintDocument(kind, text, options);
    scope.postMessage({ id, ok: true, diagnostics, millis: performance.now() - started });
  } catch (error) {
    scope.postMessage({ id, ok: false, message: error instanceof Error ? error.message : String(error) });
  }
};
