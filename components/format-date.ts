/**
 * Dates are rendered on the server, whose time zone says nothing about the reader's, so they
 * are shown in UTC and labelled as such; the full timestamp is in the element's title.
 */
export function formatDate(date: Date | null): string {
  if (!date) return '—';
  return `${date.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}
