/**
 * The text of an error the gateway passes on to the agent (a tools/list error, a tools/call
 * `isError` result), to the log and to evidence. Upstream errors carry the upstream's own words:
 * the MCP SDK puts an HTTP error's body into `error.message`, and an upstream that answers 401
 * may quote the credential it was sent ("invalid token Bearer …"). The upstream's credentials
 * never leave Toolgate (docs/mcp-gateway.md), so every such text goes through here: the auth
 * header's value, and the forms an upstream may echo it in, become REDACTED, and the text is
 * bounded.
 */

export const REDACTED = '[redacted]';

/** Error texts are kept to one line of at most this many characters. */
export const MAX_ERROR_TEXT = 300;

/** Derived forms shorter than this are not looked for: they would blank out ordinary words. */
const MIN_DERIVED_LENGTH = 4;

function base64Decoded(text: string): string | null {
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(text) || text.length % 4 !== 0) return null;
  const decoded = Buffer.from(text, 'base64').toString('utf8');
  return decoded.includes('\uFFFD') ? null : decoded;
}

/**
 * Every form of the secret values (auth header values) an upstream might echo: as sent; the
 * credentials after an auth scheme (`Bearer x` → `x`); URL-encoded, JSON-escaped and base64; and
 * for a Basic credential, the decoded `user:password` and the password. Longest first, so that
 * a whole value is replaced before a part of it.
 */
export function secretForms(values: readonly string[]): string[] {
  const forms = new Set<string>();
  const add = (form: string, derived = true) => {
    if (form.length > 0 && (!derived || form.length >= MIN_DERIVED_LENGTH)) forms.add(form);
  };
  for (const value of values) {
    add(value, false);
    const [, scheme, credentials] = /^([A-Za-z][A-Za-z0-9!#$%&'*+.^_`|~-]*)\s+(\S.*)$/.exec(value.trim()) ?? [];
    const parts = credentials ? [value.trim(), credentials.trim()] : [value.trim()];
    if (scheme?.toLowerCase() === 'basic' && credentials) {
      const decoded = base64Decoded(credentials.trim());
      if (decoded !== null) {
        parts.push(decoded);
        const colon = decoded.indexOf(':');
        if (colon >= 0) parts.push(decoded.slice(colon + 1));
      }
    }
    for (const part of parts) {
      add(part);
      add(encodeURIComponent(part));
      add(JSON.stringify(part).slice(1, -1));
      add(Buffer.from(part, 'utf8').toString('base64'));
      add(Buffer.from(part, 'utf8').toString('base64url'));
    }
  }
  return [...forms].sort((a, b) => b.length - a.length);
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** `text` with every form of the secrets replaced, ignoring case (URL encoding may change it). */
export function redactSecrets(text: string, forms: readonly string[]): string {
  if (forms.length === 0) return text;
  return text.replace(new RegExp(forms.map(escapeRegExp).join('|'), 'gi'), REDACTED);
}

/**
 * The one-line, bounded, redacted text of an error. Redacted before it is cut (a cut must not
 * leave the start of a secret) and again after whitespace is folded (a secret an upstream wrapped
 * across lines).
 */
export function upstreamErrorText(error: unknown, forms: readonly string[]): string {
  // An upstream's whole HTTP body may be in the message (megabytes): only its start can be shown,
  // and a secret cut at this bound lies far past the part that is.
  const raw = (error instanceof Error ? error.message : String(error)).slice(0, 64 * 1024);
  const folded = redactSecrets(redactSecrets(raw, forms).replace(/\s+/g, ' '), forms).trim();
  return folded.length > MAX_ERROR_TEXT ? `${folded.slice(0, MAX_ERROR_TEXT - 1)}…` : folded;
}
