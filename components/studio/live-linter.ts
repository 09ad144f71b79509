import type { Diagnostic, DocumentKind, LintOptions } from '@/lib/lint';
import type { LintRequest, LintResponse } from './lint-protocol';

/** The worker as the linter sees it; tests pass a fake. */
export interface LintPort {
  post(request: LintRequest): void;
  onResponse(listener: (response: LintResponse) => void): void;
  onFailure(listener: (message: string) => void): void;
  terminate(): void;
}

export type LintOutcome = { id: number; ok: true; diagnostics: Diagnostic[]; millis: number } | { id: number; ok: false; message: string };

/**
 * Lints as the author types: waits `delayMs` after the last change, keeps at most one request in
 * the worker, and when the worker answers an outdated request sends only the newest text (never
 * a backlog of every keystroke). Answers for text that has since changed are dropped, because
 * their ranges no longer match the buffer.
 */
export class LiveLinter {
  private nextId = 1;
  private latest: LintRequest | undefined;
  private inFlight: number | undefined;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private disposed = false;

  constructor(
    private readonly port: LintPort,
    private readonly onOutcome: (outcome: LintOutcome) => void,
    private readonly delayMs: number,
  ) {
    port.onResponse((response) => this.receive(response));
    port.onFailure((message) => {
      this.inFlight = undefined;
      if (!this.disposed) this.onOutcome({ id: this.latest?.id ?? 0, ok: false, message });
    });
  }

  /** Schedules a lint of `text`; returns the request id its outcome will carry. */
  schedule(kind: DocumentKind, text: string, options: LintOptions, delayMs = this.delayMs): number {
    this.latest = { id: this.nextId++, kind, text, options };
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.send();
    }, delayMs);
    return this.latest.id;
  }

  dispose(): void {
    this.disposed = true;
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.port.terminate();
  }

  private send(): void {
    if (this.disposed || !this.latest || this.inFlight !== undefined) return;
    this.inFlight = this.latest.id;
    this.port.post(this.latest);
  }

  private receive(response: LintResponse): void {
    if (this.disposed || response.id !== this.inFlight) return;
    this.inFlight = undefined;
    if (response.id === this.latest?.id) {
      this.onOutcome(response);
      return;
    }
    // Outdated: the text changed while the worker was busy. If the debounce for the newer text
    // has already expired, send it now; otherwise its timer will.
    if (this.timer === undefined) this.send();
  }
}

/** A port over a real Web Worker. */
export function workerPort(worker: Worker): LintPort {
  return {
    post: (request) => worker.postMessage(request),
    onResponse: (listener) => worker.addEventListener('message', (event: MessageEvent<LintResponse>) => listener(event.data)),
    onFailure: (listener) => worker.addEventListener('error', (event) => listener(event.message || 'The lint worker failed to start.')),
    terminate: () => worker.terminate(),
  };
}

/** Stands in for a worker that could not start: every request fails with `message`. */
export function failingPort(message: string): LintPort {
  let fail: (message: string) => void = () => {};
  return {
    post: () => queueMicrotask(() => fail(message)),
    onResponse: () => {},
    onFailure: (listener) => (fail = listener),
    terminate: () => {},
  };
}
