import { z } from 'zod';
import { WEBHOOK_EVENTS } from './webhook-events';

/**
 * A webhook receiver's URL as the API and the Settings page accept it: http(s), a host, no
 * credentials, no whitespace or control characters, at most 2048 characters. Whether the host may be called at all (public
 * addresses only, SSRF) is checked when the webhook is created (webhook-address.ts) and again
 * at every delivery.
 */
export function httpUrlWithoutCredentials(why: string) {
  return (
    z
      .string()
      .max(2048)
      // The URL parser would drop or percent-encode them, so what was stored (and shown) would
      // not be the address called: refused, as credentials and port 0 are, rather than rewritten.
      .refine((value) => !/[\s\p{Cc}]/u.test(value), 'must not contain whitespace or control characters')
      .refine((value) => {
        try {
          const url = new URL(value);
          return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '';
        } catch {
          return false;
        }
      }, 'must be an http or https URL')
      .refine(
        (value) => URL.canParse(value) && new URL(value).username === '' && new URL(value).password === '',
        `must not carry credentials; ${why}`,
      )
      // Port 0 names no port a connection can reach: every delivery would fail.
      .refine((value) => !URL.canParse(value) || new URL(value).port !== '0', 'must not name port 0')
  );
}

export const WebhookUrl = httpUrlWithoutCredentials('receivers authenticate deliveries by their signature').describe(
  'Where deliveries are POSTed: an http(s) URL without credentials, at most 2048 characters.',
);

/** A new webhook: where, and which events (default: all). */
export const NewWebhookSchema = z
  .object({
    url: WebhookUrl,
    events: z
      .array(z.enum(WEBHOOK_EVENTS))
      .min(1)
      .max(WEBHOOK_EVENTS.length)
      .default([...WEBHOOK_EVENTS]),
  })
  .strict();
