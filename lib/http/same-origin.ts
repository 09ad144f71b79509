/**
 * The same-origin rule for cookie-authenticated requests that change state (docs/security.md).
 *
 * A browser attaches the session cookie to a request another site makes it send (a form post,
 * a fetch from a page the person happens to visit), so the cookie alone does not show the
 * person meant the request. The `Origin` header does: browsers set it themselves on every
 * request other than GET and HEAD, and a page cannot forge it. So an unsafe request carrying
 * the session cookie is obeyed only when its Origin is this instance's own origin.
 *
 * Pure and dependency-free: the API wrapper, the Better Auth route and the Next proxy all call
 * it with what they read from their own request type.
 */

/** Methods that must not change state; everything else (including unknown methods) is checked. */
const SAFE_METHODS: ReadonlySet<string> = new Set(['GET', 'HEAD', 'OPTIONS']);

/** Longer than any origin a browser sends; refused without parsing. */
const MAX_ORIGIN_LENGTH = 2048;

export type CrossSiteReason =
  /** `Origin: null`: a sandboxed frame, a `data:` page, or a redirect across origins. */
  | 'origin_null'
  /** Not a single serialized origin (a path, a default port spelled out, percent-escapes, a list). */
  | 'origin_malformed'
  /** A well-formed origin that is not this instance's. */
  | 'origin_mismatch'
  /** No Origin, and nothing else shows the request came from this origin. */
  | 'origin_missing'
  /** The browser says the request came from another site (Sec-Fetch-Site). */
  | 'cross_site'
  /** The instance's own origin cannot be told (no public URL and an unusable Host). */
  | 'no_expected_origin';

export type SameOriginVerdict = { allowed: true } | { allowed: false; reason: CrossSiteReason; expected: string | null };

export interface SameOriginInput {
  method: string;
  /** The `Origin` header as received, or null when absent. */
  origin: string | null;
  /** The `Sec-Fetch-Site` header, or null when absent. */
  secFetchSite: string | null;
  /** TOOLGATE_PUBLIC_URL when set: then it alone is the instance's origin. */
  publicUrl: string | undefined;
  /** The `Host` header, or null (then the request URL's host is used). */
  host: string | null;
  /** The request's absolute URL: its scheme, and its host when there is no Host header. */
  requestUrl: string;
}

export function isSafeMethod(method: string): boolean {
  // Case-sensitive on purpose: "post" is not a method any router here treats as GET.
  return SAFE_METHODS.has(method);
}

/**
 * The instance's own origin: TOOLGATE_PUBLIC_URL's when set, else the scheme of the request URL
 * with the Host header. Null when neither gives one (a Host with a path or user info in it).
 */
export function expectedOrigin(input: Pick<SameOriginInput, 'publicUrl' | 'host' | 'requestUrl'>): string | null {
  if (input.publicUrl) return serializedOrigin(input.publicUrl);
  let scheme: string;
  let host: string;
  try {
    const url = new URL(input.requestUrl);
    scheme = url.protocol;
    host = input.host ?? url.host;
  } catch {
    return null;
  }
  if (scheme !== 'http:' && scheme !== 'https:') return null;
  // The Host header is only ever a host and an optional port; anything the URL parser would
  // read as user info, path, query or fragment means it is not one.
  if (host === '' || /[/?#@\\\s]/.test(host)) return null;
  return serializedOrigin(`${scheme}//${host}`);
}

/**
 * Whether an unsafe request may go on. Safe methods always may. Otherwise the Origin must be
 * exactly the instance's origin (ASCII case aside); a missing Origin is accepted only when the
 * browser itself vouches with `Sec-Fetch-Site: same-origin`.
 */
export function checkSameOrigin(input: SameOriginInput): SameOriginVerdict {
  if (isSafeMethod(input.method)) return { allowed: true };
  const expected = expectedOrigin(input);
  const site = input.secFetchSite?.trim().toLowerCase() ?? null;
  if (site === 'cross-site' || site === 'same-site') return { allowed: false, reason: 'cross_site', expected };
  const origin = input.origin;
  if (origin === null) {
    // Every browser that sends Sec-Fetch-Site also sends Origin on unsafe requests, so this is
    // rare; the header cannot be set by a page, so it is as good as an Origin.
    if (site === 'same-origin') return expected === null ? { allowed: false, reason: 'no_expected_origin', expected } : { allowed: true };
    // Neither header: an old browser (which cannot be told from a forged request) or a program
    // replaying a cookie (which should use an API key). Refused: see docs/security.md.
    return { allowed: false, reason: 'origin_missing', expected };
  }
  if (origin.trim().toLowerCase() === 'null') return { allowed: false, reason: 'origin_null', expected };
  if (origin.length > MAX_ORIGIN_LENGTH) return { allowed: false, reason: 'origin_malformed', expected };
  const parsed = serializedOrigin(origin);
  // Browsers send the ASCII serialization; anything the parser had to rewrite (a path, a
  // trailing slash, ":80", "%6c", Unicode) is not one origin as a browser would send it.
  if (parsed === null || parsed !== origin.toLowerCase()) return { allowed: false, reason: 'origin_malformed', expected };
  if (expected === null) return { allowed: false, reason: 'no_expected_origin', expected };
  return parsed === expected ? { allowed: true } : { allowed: false, reason: 'origin_mismatch', expected };
}

/** `scheme://host[:port]` of an http(s) URL, or null. */
function serializedOrigin(value: string): string | null {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return null;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
  return url.origin;
}

/** The message a refused caller reads. */
export function crossSiteMessage(verdict: Extract<SameOriginVerdict, { allowed: false }>): string {
  const want = verdict.expected ? ` from ${verdict.expected}` : '';
  switch (verdict.reason) {
    case 'origin_missing':
      return `A signed-in request that changes something must carry an Origin header${want}. Programs should use an API key instead of a session cookie.`;
    case 'no_expected_origin':
      return 'This instance cannot tell its own origin (set TOOLGATE_PUBLIC_URL), so signed-in requests that change something are refused.';
    default:
      return `Cross-site request refused: a signed-in request that changes something must come${want || " from this instance's own origin"}.`;
  }
}
