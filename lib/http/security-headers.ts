/**
 * The headers every JSON answer carries (docs/security.md). Next adds them to everything it
 * serves from next.config.js `headers()`; the data-plane server writes its answers itself and
 * adds these (a unit test keeps the two lists equal). JSON is never rendered, so its policy
 * allows nothing at all, framing included.
 */
export const API_SECURITY_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'referrer-policy': 'strict-origin-when-cross-origin',
});
