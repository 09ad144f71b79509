import { setImmediate as yieldToEventLoop } from 'node:timers/promises';

/**
 * For a long computation on the thread that also answers the gate (an impact preview replaying
 * 1,000 recorded calls takes seconds): the pause it returns lets waiting requests run once
 * `sliceMs` have passed since the last pause, and costs nothing before then, so awaiting it once
 * per step of the work keeps any other call's wait near `sliceMs` plus one step.
 */
export function timeSlices(sliceMs = 10): () => Promise<void> | undefined {
  let sliceStarted = performance.now();
  return () => {
    if (performance.now() - sliceStarted < sliceMs) return undefined;
    return yieldToEventLoop().then(() => {
      sliceStarted = performance.now();
    });
  };
}
