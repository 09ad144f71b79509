/**
 * Exponential backoff for webhook deliveries: 10 s, 20 s, 40 s, … capped at one hour, plus up
 * to 10% jitter so deliveries that failed together do not all retry in the same instant. With
 * 8 attempts a delivery is given up about 21 minutes after its first failure.
 */
export function retryDelayMs(failedAttempts: number, random: () => number = Math.random): number {
  const base = Math.min(10_000 * 2 ** Math.max(0, failedAttempts - 1), 3_600_000);
  return Math.round(base * (1 + 0.1 * random()));
}
