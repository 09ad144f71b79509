/**
 * Whether a total passes a limit, in decimals as people write them: sums of binary doubles are
 * off in their last digits (0.1 + 0.2 is 0.30000000000000004), and a budget of 0.3 refused 0.1
 * then 0.2. Whole numbers (counts, cents) add exactly below 2^53 and compare exactly; a total
 * with a fraction within a relative 1e-12 of its limit is at it, well above what summing
 * doubles loses and well below any step an amount is written in.
 */
export function exceeds(total: number, max: number): boolean {
  if (Number.isInteger(total) && Number.isInteger(max)) return total > max;
  return total - max > 1e-12 * Math.max(1, Math.abs(max), Math.abs(total));
}

/**
 * A sum as people read it: 15 significant digits drop the binary noise (0.3 - 0.1 is
 * 0.19999999999999998 in doubles) and keep every digit of a whole number below 2^53.
 */
export function tidy(value: number): number {
  return Number.isInteger(value) ? value : Number(value.toPrecision(15));
}
