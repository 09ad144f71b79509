import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Webhook signing, Stripe-style. Every delivery carries
 *
 *   Toolgate-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256(secret, `${t}.${raw body}`)>
 *
 * Receivers recompute the HMAC over the timestamp, a dot and the raw request body (before any
 * JSON parsing), compare in constant time, and refuse timestamps older than a few minutes so a
 * captured delivery cannot be replayed later. The timestamp is signed with the body, so it
 * cannot be refreshed by someone without the secret.
 *
 * The secret is never stored: it is an HMAC of the webhook id under the instance secret, so it
 * can be recomputed at delivery time and is shown to the tenant once, when the webhook is
 * created. Rotating TOOLGATE_SECRET rotates every webhook secret.
 */
export const SIGNATURE_HEADER = 'toolgate-signature';
export const DEFAULT_TOLERANCE_SECONDS = 300;

export function deriveWebhookSecret(instanceSecret: string, webhookId: string): string {
  return `whsec_${createHmac('sha256', instanceSecret).update(`toolgate-webhook\n${webhookId}`).digest('base64url')}`;
}

function hmacHex(secret: string, timestamp: number, body: string): string {
  return createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex');
}

/** The `Toolgate-Signature` header value for one delivery attempt. */
export function signWebhookBody(secret: string, body: string, timestamp: number = Math.floor(Date.now() / 1000)): string {
  return `t=${timestamp},v1=${hmacHex(secret, timestamp, body)}`;
}

/** What a receiver does: true only for a valid, fresh signature of exactly this body. */
export function verifyWebhookSignature(options: {
  secret: string;
  header: string | null;
  body: string;
  toleranceSeconds?: number;
  now?: number;
}): boolean {
  if (!options.header) return false;
  const parts = new Map<string, string[]>();
  for (const part of options.header.split(',')) {
    const [key, value] = part.split('=', 2).map((s) => s.trim());
    if (key && value) parts.set(key, [...(parts.get(key) ?? []), value]);
  }
  const t = Number(parts.get('t')?.[0]);
  if (!Number.isInteger(t)) return false;
  const now = options.now ?? Math.floor(Date.now() / 1000);
  if (Math.abs(now - t) > (options.toleranceSeconds ?? DEFAULT_TOLERANCE_SECONDS)) return false;
  const expected = Buffer.from(hmacHex(options.secret, t, options.body), 'utf8');
  // Several v1 values may be present (e.g. during a secret rotation); any one may match.
  return (parts.get('v1') ?? []).some((candidate) => {
    const given = Buffer.from(candidate, 'utf8');
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
}
