import { isScalar, parseDocument as parseYaml, type ParseOptions, type ScalarTag } from 'yaml';
import { bail } from './yaml-fast-scan';

/**
 * How the fast path resolves plain scalars (`42`, `true`, `~`, `.inf`): through the `yaml`
 * package's own core-schema tags, so a value is exactly what the full parser would give.
 */

/** The options parse-document.ts gives the `yaml` package; scalars resolve through its schema. */
export const YAML_OPTIONS = { uniqueKeys: true, prettyErrors: false, strict: true, version: '1.2' } as const;

/**
 * The core schema's implicit scalar tags as `yaml` builds them for YAML_OPTIONS, in its order.
 * The first-character filter in `resolvePlainScalar` is only valid for these exact tests, so any other
 * schema (a `yaml` upgrade that changes them) turns the fast path off instead of diverging.
 */
const EXPECTED_TESTS = new Set([
  '^(?:~|[Nn]ull|NULL)?$',
  '^(?:[Tt]rue|TRUE|[Ff]alse|FALSE)$',
  '^0o[0-7]+$',
  '^[-+]?[0-9]+$',
  '^0x[0-9a-fA-F]+$',
  '^(?:[-+]?\\.(?:inf|Inf|INF)|\\.nan|\\.NaN|\\.NAN)$',
  '^[-+]?(?:\\.[0-9]+|[0-9]+(?:\\.[0-9]*)?)[eE][-+]?[0-9]+$',
  '^[-+]?(?:\\.[0-9]+|[0-9]+\\.[0-9]*)$',
]);

export interface Resolver {
  tags: ScalarTag[];
  options: ParseOptions;
}

let resolver: Resolver | null | undefined;

export function getResolver(): Resolver | null {
  if (resolver !== undefined) return resolver;
  const probe = parseYaml('', YAML_OPTIONS);
  const tags = (probe.schema.tags as ScalarTag[]).filter((tag) => tag.default === true && tag.test);
  const keyOnly = probe.schema.tags.some((tag) => tag.default === 'key');
  const sources = tags.map((tag) => tag.test?.source ?? '');
  const known = !keyOnly && !probe.schema.compat && sources.length === EXPECTED_TESTS.size && sources.every((s) => EXPECTED_TESTS.has(s));
  resolver = known ? { tags, options: probe.options } : null;
  return resolver;
}

/**
 * Whether plain text could match one of EXPECTED_TESTS: only digits, `~`, `+`, `-` and `.` start
 * a number or null, and only `n`, `t`, `f` (any case) a null or bool of at most five letters.
 * Most keys and strings fail this at once and skip eight regular expressions.
 */
function mayBeTyped(source: string): boolean {
  const code = source.charCodeAt(0);
  if ((code >= 48 && code <= 57) || code === 126 || code === 43 || code === 45 || code === 46) return true;
  const letter = code | 0x20;
  return (letter === 110 || letter === 116 || letter === 102) && source.length <= 5;
}

/**
 * Plain text resolves as in the `yaml` package: the first core tag whose test matches (the
 * same for keys and in flow sequences: the core schema has no key-only tags).
 */
export function resolvePlainScalar(source: string, scalars: Resolver): unknown {
  if (!mayBeTyped(source)) return source;
  for (const tag of scalars.tags) {
    if (tag.test?.test(source)) {
      // Where the `yaml` package would record an error, the full parser is left to do so.
      let resolved: unknown;
      try {
        resolved = tag.resolve(source, bail, scalars.options);
      } catch {
        bail();
      }
      return isScalar(resolved) ? resolved.value : resolved;
    }
  }
  return source;
}
