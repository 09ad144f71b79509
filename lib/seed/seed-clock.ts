import { clockShift } from '../clock/clock-shift';

/**
 * Runs `fn` with the decision path's clock (lib/clock/clock.ts) at `at`, running on from there,
 * then puts it back. For the demo seed only, in a process that serves nothing yet: every
 * decision in the process meanwhile happens at that time. One at a time; never in the future.
 */
export async function atTime<T>(at: number, fn: () => Promise<T>): Promise<T> {
  if (clockShift.ms !== 0) throw new Error('atTime: the clock is already moved');
  // Whole milliseconds, like the system clock: history counters store them as integers.
  const shift = Math.floor(at) - Date.now();
  if (shift > 0) throw new Error('atTime: the demo seed makes no calls in the future');
  clockShift.ms = shift;
  try {
    return await fn();
  } finally {
    clockShift.ms = 0;
  }
}
