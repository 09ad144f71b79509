/** The label value a bounded label gives every value past its limit. */
export const OVERFLOW_LABEL = 'other';

/**
 * Values of a label that callers can name (tools, codes): the first `limit` distinct values keep
 * their own series, later ones share `other`, so a stream of made-up names cannot grow the
 * scrape, or Prometheus, without bound. Contract tool ids always hold a dot, so `other` never
 * collides with one.
 */
export class BoundedLabel {
  private readonly seen = new Set<string>();

  constructor(private readonly limit: number) {}

  value(candidate: string): string {
    if (this.seen.has(candidate)) return candidate;
    if (this.seen.size >= this.limit) return OVERFLOW_LABEL;
    this.seen.add(candidate);
    return candidate;
  }
}
