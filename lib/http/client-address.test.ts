import { describe, expect, it } from 'vitest';
import { clientAddress, parseTrustedProxies } from './client-address';

describe('clientAddress', () => {
  it('is the connection’s peer when no proxy is trusted, whatever X-Forwarded-For says', () => {
    expect(clientAddress('203.0.113.9', undefined, [])).toBe('203.0.113.9');
    expect(clientAddress('203.0.113.9', '198.51.100.1', [])).toBe('203.0.113.9');
    expect(clientAddress('::ffff:127.0.0.2', '10.0.0.1', [])).toBe('127.0.0.2');
    expect(clientAddress('2001:db8::1', undefined, [])).toBe('2001:db8::1');
    expect(clientAddress(undefined, '198.51.100.1', [])).toBeNull();
  });

  it('reads X-Forwarded-For from the right through trusted proxies, never left of the first untrusted hop', () => {
    const trusted = parseTrustedProxies('10.0.0.0/8, 192.168.1.1');
    // The caller wrote 1.1.1.1; the proxy appended the address it saw.
    expect(clientAddress('10.0.0.5', '1.1.1.1, 203.0.113.7', trusted)).toBe('203.0.113.7');
    expect(clientAddress('10.0.0.5', '203.0.113.7, 192.168.1.1', trusted)).toBe('203.0.113.7');
    // Every hop trusted: the leftmost is the nearest known.
    expect(clientAddress('10.0.0.5', '10.1.1.1, 10.2.2.2', trusted)).toBe('10.1.1.1');
    // An untrusted peer's X-Forwarded-For is not read at all.
    expect(clientAddress('203.0.113.50', '10.0.0.1', trusted)).toBe('203.0.113.50');
    // A hop that is not an address stops the walk at the proxy that wrote it.
    expect(clientAddress('10.0.0.5', '1.1.1.1, not-an-ip', trusted)).toBe('10.0.0.5');
    expect(clientAddress('10.0.0.5', '', trusted)).toBe('10.0.0.5');
  });

  it('reads the ways proxies write addresses: ports, brackets, IPv4-mapped IPv6, zones', () => {
    const trusted = parseTrustedProxies('::1 127.0.0.1');
    expect(clientAddress('::1', '203.0.113.7:51234', trusted)).toBe('203.0.113.7');
    expect(clientAddress('127.0.0.1', '[2001:db8::7]:443', trusted)).toBe('2001:db8::7');
    expect(clientAddress('::ffff:127.0.0.1', '::ffff:198.51.100.3', trusted)).toBe('198.51.100.3');
    expect(clientAddress('::1', 'fe80::1%eth0', trusted)).toBe('fe80::1');
  });

  it('reads at most 32 hops, so a long header costs no more than that', () => {
    const trusted = parseTrustedProxies('10.0.0.0/8');
    const long = Array.from({ length: 5000 }, (_, i) => `10.0.${Math.floor(i / 256) % 256}.${i % 256}`).join(', ');
    expect(clientAddress('10.9.9.9', `203.0.113.1, ${long}`, trusted)).toMatch(/^10\./);
  });
});

describe('parseTrustedProxies', () => {
  it('takes addresses and CIDR ranges, comma- or space-separated, and names the first bad entry', () => {
    expect(parseTrustedProxies(undefined)).toEqual([]);
    expect(parseTrustedProxies(' 10.0.0.0/8,,172.16.0.0/12 ::1  fd00::/8 ')).toHaveLength(4);
    expect(() => parseTrustedProxies('10.0.0.0/8, proxy.internal')).toThrow('"proxy.internal" is not an IP address or CIDR range');
    expect(() => parseTrustedProxies('10.0.0.0/33')).toThrow('"10.0.0.0/33"');
  });
});
