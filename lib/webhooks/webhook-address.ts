import ipaddr from 'ipaddr.js';

/**
 * Why Toolgate must not call this webhook URL's host, or null. Webhook URLs come from tenant
 * admins, and every delivery is a request from inside Toolgate's network: without this, a
 * tenant could make it POST to cloud metadata (169.254.169.254), to localhost services, or to
 * anything else on the private network (SSRF). Only addresses in the public unicast range are
 * allowed, as request-filtering-agent checks them again at connect time, after DNS (a name
 * is only known to be public once it is resolved; see post-webhook.ts).
 */
export function blockedWebhookHost(url: URL): string | null {
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1').toLowerCase();
  if (host === 'localhost' || host.endsWith('.localhost')) return `${host} is this machine`;
  if (!ipaddr.isValid(host)) return null;
  // process() turns IPv4-mapped IPv6 (::ffff:10.0.0.1) into the IPv4 address it carries.
  const range = ipaddr.process(host).range();
  return range === 'unicast' ? null : `${host} is a ${range} address, not a public one`;
}
