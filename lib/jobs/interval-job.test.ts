import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { startIntervalJob } from './interval-job';

describe('startIntervalJob', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('runs every interval, never two runs at once', async () => {
    let runs = 0;
    let release: (() => void) | undefined;
    const job = startIntervalJob('t', 1000, () => {
      runs++;
      return new Promise<void>((resolve) => (release = resolve));
    });
    await vi.advanceTimersByTimeAsync(999);
    expect(runs).toBe(0);
    await vi.advanceTimersByTimeAsync(1);
    expect(runs).toBe(1);
    // Still running: the next ticks are skipped, not piled up.
    await vi.advanceTimersByTimeAsync(3000);
    expect(runs).toBe(1);
    release?.();
    await vi.advanceTimersByTimeAsync(1000);
    expect(runs).toBe(2);
    release?.();
    await job.stop();
  });

  it('runs first after firstRunAfterMs when that is sooner than the interval, then every interval', async () => {
    let runs = 0;
    const job = startIntervalJob('t', 3_600_000, async () => void runs++, { firstRunAfterMs: 60_000 });
    await vi.advanceTimersByTimeAsync(59_999);
    expect(runs).toBe(0);
    await vi.advanceTimersByTimeAsync(1);
    expect(runs).toBe(1);
    await vi.advanceTimersByTimeAsync(3_600_000 - 60_000);
    expect(runs).toBe(2);
    await job.stop();
    await vi.advanceTimersByTimeAsync(10_000_000);
    expect(runs).toBe(2);
  });

  it('does not run the first run after stop', async () => {
    let runs = 0;
    const job = startIntervalJob('t', 3_600_000, async () => void runs++, { firstRunAfterMs: 60_000 });
    await job.stop();
    await vi.advanceTimersByTimeAsync(120_000);
    expect(runs).toBe(0);
  });
});
