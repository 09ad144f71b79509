import ipaddr from 'ipaddr.js';

/**
 * Names that only ever mean this machine or a private network: `localhost` (RFC 6761), mDNS's
 * `.local` (RFC 6762), `.home.arpa` (RFC 8375) and `.internal` (reserved for private use by
 * ICANN). Anything else is a public name until DNS says otherwise.
 */
const PRIVATE_NAME = /(^|\.)(localhost|local|internal|home\.arpa)$/;

/** Global unicast is 2000::/3; everything else in IPv6 is special-purpose or unallocated. */
const GLOBAL_UNICAST_V6 = ipaddr.parseCIDR('2000::/3');

/**
 * Why Toolgate must not call this webhook URL's host, or null. Webhook URLs come from tenant
 * admins, and every delivery is a request from inside Toolgate's network: without this, a
 * tenant could make it POST to cloud metadata (169.254.169.254), to localhost services, or to
 * anything else on the private network (SSRF). Only addresses in the public unicast range are
 * allowed, as request-filtering-agent checks them again at connect time, after DNS (a name
 * is only known to be public once it is resolved; see post-webhook.ts).
 *
 * The WHATWG URL parser has already turned `127.1`, `0x7f.1`, `2130706433` and `0` into dotted
 * IPv4 and lower-cased names; what it leaves are trailing dots (`localhost.` is the same name
 * as `localhost` to a resolver) and IPv6 spellings, handled here.
 */
export function blockedWebhookHost(url: URL): string | null {
  const host = url.hostname
    .replace(/^\[(.*)\]$/, '$1')
    .toLowerCase()
    .replace(/\.+$/, '');
  if (host === '') return 'the host is empty';
  if (PRIVATE_NAME.test(host)) return `${host} is a private name (this machine or a local network)`;
  if (!ipaddr.isValid(host)) return null;
  // process() turns IPv4-mapped IPv6 (::ffff:10.0.0.1) into the IPv4 address it carries.
  const address = ipaddr.process(host);
  const range = address.range();
  if (range !== 'unicast') return `${host} is a ${range} address, not a public one`;
  // ipaddr calls the deprecated IPv4-compatible form (::127.0.0.1) and other unallocated
  // space "unicast"; none of it is a public receiver.
  if (address.kind() === 'ipv6' && !address.match(GLOBAL_UNICAST_V6)) return `${host} is outside IPv6 global unicast (2000::/3)`;
  return null;
}
