import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { LintRequest, LintResponse } from './lint-protocol';
import { LiveLinter, type LintOutcome, type LintPort } from './live-linter';

function fakePort() {
  const posted: LintRequest[] = [];
  let respond: (response: LintResponse) => void = () => {};
  let fail: (message: string) => void = () => {};
  const port: LintPort = {
    post: (request) => posted.push(request),
    onResponse: (listener) => (respond = listener),
    onFailure: (listener) => (fail = listener),
    terminate: vi.fn(),
  };
  const answer = (request: LintRequest): void => respond({ id: request.id, ok: true, diagnostics: [], millis: 1 });
  return { port, posted, answer, fail: (message: string) => fail(message) };
}

describe('LiveLinter', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('sends one request for a burst of keystrokes, after the delay, with the last text', () => {
    const { port, posted } = fakePort();
    const linter = new LiveLinter(port, () => {}, 50);
    linter.schedule('contract', 'a', {});
    vi.advanceTimersByTime(30);
    linter.schedule('contract', 'ab', {});
    vi.advanceTimersByTime(49);
    expect(posted).toHaveLength(0);
    vi.advanceTimersByTime(1);
    expect(posted.map((r) => r.text)).toEqual(['ab']);
  });

  it('keeps one request in the worker and then sends only the newest text', () => {
    const { port, posted, answer } = fakePort();
    const outcomes: LintOutcome[] = [];
    const linter = new LiveLinter(port, (o) => outcomes.push(o), 10);
    linter.schedule('contract', 'one', {});
    vi.advanceTimersByTime(10);
    linter.schedule('contract', 'two', {});
    vi.advanceTimersByTime(10);
    linter.schedule('contract', 'three', {});
    vi.advanceTimersByTime(10);
    expect(posted.map((r) => r.text)).toEqual(['one']);
    answer(posted[0]!);
    // "one" is outdated, so its answer is dropped and "three" goes out at once.
    expect(outcomes).toEqual([]);
    expect(posted.map((r) => r.text)).toEqual(['one', 'three']);
    answer(posted[1]!);
    expect(outcomes).toEqual([{ id: 3, ok: true, diagnostics: [], millis: 1 }]);
  });

  it('waits for the debounce of newer text when an outdated answer arrives early', () => {
    const { port, posted, answer } = fakePort();
    const linter = new LiveLinter(port, () => {}, 10);
    linter.schedule('contract', 'one', {});
    vi.advanceTimersByTime(10);
    linter.schedule('contract', 'two', {});
    answer(posted[0]!);
    expect(posted).toHaveLength(1);
    vi.advanceTimersByTime(10);
    expect(posted.map((r) => r.text)).toEqual(['one', 'two']);
  });

  it('reports a worker failure, and ignores everything after dispose', () => {
    const { port, posted, answer, fail } = fakePort();
    const outcomes: LintOutcome[] = [];
    const linter = new LiveLinter(port, (o) => outcomes.push(o), 10);
    linter.schedule('policy', 'x', {});
    vi.advanceTimersByTime(10);
    fail('boom');
    expect(outcomes).toEqual([{ id: 1, ok: false, message: 'boom' }]);
    linter.schedule('policy', 'y', {});
    linter.dispose();
    vi.advanceTimersByTime(10);
    expect(posted).toHaveLength(1);
    answer(posted[0]!);
    expect(outcomes).toHaveLength(1);
    expect(port.terminate).toHaveBeenCalledOnce();
  });
});
