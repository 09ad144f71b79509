/**
 * The labels of a count axis from 0 to at least `max`: whole numbers, each one different, in
 * steps a person reads at a glance (1, 2, 5, 10, 20, 50, …), at most `maxIntervals` of them.
 * The last tick is the axis' top, so a bar that reaches it is exactly that count. (Labels
 * computed as fractions of the maximum and rounded read "0, 1, 1" when the maximum is 1.)
 */
export function axisTicks(max: number, maxIntervals = 4): number[] {
  const top = Number.isFinite(max) && max > 1 ? Math.ceil(max) : 1;
  const intervals = Math.max(1, Math.floor(maxIntervals));
  for (let magnitude = 1; ; magnitude *= 10) {
    for (const multiple of [1, 2, 5]) {
      const step = multiple * magnitude;
      const needed = Math.ceil(top / step);
      if (needed <= intervals) return Array.from({ length: needed + 1 }, (_, i) => i * step);
    }
  }
}
