import { describe, expect, it } from 'vitest';
import { timeSlices } from './time-slice';

describe('timeSlices', () => {
  it('does not pause within a slice', () => {
    const pause = timeSlices(60_000);
    expect(pause()).toBeUndefined();
    expect(pause()).toBeUndefined();
  });

  it('lets what waits on the event loop run once a slice has passed, then starts a new slice', async () => {
    const pauseNow = timeSlices(50);
    const ran: string[] = [];
    setImmediate(() => ran.push('waiting request'));
    const started = performance.now();
    let spins = 0;
    while (performance.now() - started < 60) spins += 1; // busy, as a replay is
    expect(spins).toBeGreaterThan(0);
    const pause = pauseNow();
    expect(pause).toBeInstanceOf(Promise);
    expect(ran).toEqual([]);
    await pause;
    expect(ran).toEqual(['waiting request']);
    expect(pauseNow()).toBeUndefined();
  });
});
