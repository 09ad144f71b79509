/**
 * A spike: the last hour at three times the same hour yesterday or more, and at least five
 * calls, so that one refusal against none the day before is not called a spike.
 */
export const SPIKE_FACTOR = 3;
export const SPIKE_MIN_CALLS = 5;

export function isSpike(current: number, previous: number): boolean {
  return current >= SPIKE_MIN_CALLS && current >= SPIKE_FACTOR * previous;
}

/** What the overview says about a spike, in words (never by colour alone). */
export function describeSpike(current: number, previous: number): string {
  if (previous === 0) return `Spike: ${current.toLocaleString('en-US')} in the last hour, none in the same hour yesterday`;
  const factor = current / previous;
  const shown = factor >= 10 ? Math.round(factor).toLocaleString('en-US') : (Math.floor(factor * 10) / 10).toString();
  return `Spike: ${shown}× the same hour yesterday (${current.toLocaleString('en-US')} against ${previous.toLocaleString('en-US')})`;
}
