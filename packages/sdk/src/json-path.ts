const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/** JSONPath for a list of segments: `['items', 0, 'sku']` -> `$.items[0].sku`. */
export function formatJsonPath(segments: readonly (string | number)[]): string {
  let path = '$';
  for (const segment of segments) {
    if (typeof segment === 'number') path += `[${segment}]`;
    else if (IDENTIFIER.test(segment)) path += `.${segment}`;
    else path += `[${JSON.stringify(segment).replace(/^"|"$/g, "'")}]`;
  }
  return path;
}
