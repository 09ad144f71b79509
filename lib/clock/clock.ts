import { clockShift } from './clock-shift';

/**
 * The time a decision is made and recorded at: the evidence's createdAt, the history buckets a
 * call counts in and reads, approvals' times and expiry, publication times. The system clock,
 * except while the demo tenant's seed makes calls in the past (./clock-shift.ts), so that all
 * of a seeded call agrees on when it happened.
 */
export function nowMs(): number {
  return Date.now() + clockShift.ms;
}

export function now(): Date {
  return new Date(nowMs());
}
