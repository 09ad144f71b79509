import ipaddr from 'ipaddr.js';

/**
 * The header the server sets on every request it hands to Next: the caller's address as the
 * server determined it, replacing any value the caller sent. Better Auth reads it (and only it)
 * to key its sign-in rate limit and to note a session's address. Left to itself, Better Auth reads
 * `X-Forwarded-For`, which any caller can write (a new value per guess, and password guessing is
 * never limited), and without one it counts everyone in one bucket (three wrong guesses from
 * anyone lock every person out of signing in for ten seconds).
 */
export const CLIENT_ADDRESS_HEADER = 'x-toolgate-client-address';

type Address = ipaddr.IPv4 | ipaddr.IPv6;
export type TrustedProxies = readonly (readonly [Address, number])[];

/** X-Forwarded-For hops read at most, from the right: more than any real chain of proxies. */
const MAX_HOPS = 32;

/**
 * `TOOLGATE_TRUSTED_PROXIES`: addresses and CIDR ranges, separated by commas or spaces. Throws
 * naming the first entry that is neither.
 */
export function parseTrustedProxies(value: string | undefined): TrustedProxies {
  const ranges: (readonly [Address, number])[] = [];
  for (const entry of (value ?? '').split(/[\s,]+/).filter(Boolean)) {
    try {
      if (entry.includes('/')) {
        const [range, bits] = ipaddr.parseCIDR(entry);
        ranges.push([
          range.kind() === 'ipv6' && (range as ipaddr.IPv6).isIPv4MappedAddress() ? ipaddr.process(range.toString()) : range,
          bits,
        ]);
      } else {
        const address = ipaddr.process(entry);
        ranges.push([address, address.kind() === 'ipv4' ? 32 : 128]);
      }
    } catch {
      throw new Error(`"${entry.slice(0, 60)}" is not an IP address or CIDR range`);
    }
  }
  return ranges;
}

/**
 * The caller's address: the connection's peer, or, when that peer is a trusted proxy, the
 * nearest address in `X-Forwarded-For` (read from the right, as each proxy appends the one it
 * saw) that is not a trusted proxy. Entries left of the first untrusted one are whatever the
 * caller wrote and are never read. Null when the peer is unknown (a closed socket).
 */
export function clientAddress(peer: string | undefined, forwardedFor: string | undefined, trusted: TrustedProxies): string | null {
  let address = parseAddress(peer);
  if (!address) return null;
  if (trusted.length === 0 || !forwardedFor) return address.toString();
  const hops = forwardedFor.split(',');
  for (let i = hops.length - 1, read = 0; i >= 0 && read < MAX_HOPS && isTrusted(address, trusted); i--, read++) {
    const hop = parseAddress(hops[i]);
    // A hop a trusted proxy wrote that is not an address: the proxy is the nearest we know.
    if (!hop) break;
    address = hop;
  }
  return address.toString();
}

function isTrusted(address: Address, trusted: TrustedProxies): boolean {
  return trusted.some(([range, bits]) => range.kind() === address.kind() && address.match(range, bits));
}

/** An address as proxies write it: bare, `[v6]`, `[v6]:port` or `v4:port`; IPv4-mapped IPv6 as IPv4. */
function parseAddress(text: string | undefined): Address | null {
  let value = (text ?? '').trim();
  if (value.length === 0 || value.length > 64) return null;
  const bracketed = /^\[([^\]]+)\](?::\d{1,5})?$/.exec(value);
  if (bracketed) value = bracketed[1] as string;
  else if (/^[\d.]+:\d{1,5}$/.test(value)) value = value.slice(0, value.indexOf(':'));
  // A zone (fe80::1%eth0) names an interface, not a host.
  value = value.replace(/%.*$/, '');
  return ipaddr.isValid(value) ? ipaddr.process(value) : null;
}
