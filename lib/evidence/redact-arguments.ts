/** What replaces a sensitive value in stored arguments. */
export const REDACTED = '[REDACTED]';

/**
 * A JSON copy of the arguments with every sensitive dotted path replaced. Keys are defined,
 * never assigned, so a `__proto__` path cannot reach a prototype.
 */
export function redactArguments(args: Record<string, unknown>, sensitivePaths: readonly string[]): string {
  const copy = JSON.parse(JSON.stringify(args)) as Record<string, unknown>;
  for (const path of sensitivePaths) {
    const segments = path.split('.');
    let node: unknown = copy;
    for (let i = 0; i < segments.length; i++) {
      const key = segments[i] as string;
      if (typeof node !== 'object' || node === null || !Object.prototype.hasOwnProperty.call(node, key)) break;
      if (i === segments.length - 1) {
        Object.defineProperty(node, key, { value: REDACTED, enumerable: true, writable: true, configurable: true });
      } else {
        node = (node as Record<string, unknown>)[key];
      }
    }
  }
  return JSON.stringify(copy);
}
