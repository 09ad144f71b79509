/**
 * A dynamic segment of a dashboard path, as the page means it. Segments arrive still encoded
 * (`/contracts/a%2Fb` gives `a%2Fb`), and some arrive decoded once already (`%25` gives `%`), so a
 * malformed escape names nothing rather than failing the page: `/contracts/%25` rendered the error
 * page from `generateMetadata`, and the page then answers its own not-found.
 */
export function pathSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}
