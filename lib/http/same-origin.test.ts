import { describe, expect, it } from 'vitest';
import { checkSameOrigin, crossSiteMessage, expectedOrigin, isSafeMethod, type SameOriginInput } from './same-origin';

const PUBLIC = 'https://toolgate.example.com';

function verdict(overrides: Partial<SameOriginInput>) {
  return checkSameOrigin({
    method: 'POST',
    origin: PUBLIC,
    secFetchSite: null,
    publicUrl: PUBLIC,
    host: null,
    requestUrl: 'http://10.0.0.5:3000/api/v1/api-keys',
    ...overrides,
  });
}

const refused = (reason: string) => ({ allowed: false, reason, expected: expect.anything() });

describe('isSafeMethod', () => {
  it('treats exactly GET, HEAD and OPTIONS as safe', () => {
    for (const method of ['GET', 'HEAD', 'OPTIONS']) expect(isSafeMethod(method)).toBe(true);
    for (const method of ['POST', 'PUT', 'PATCH', 'DELETE', 'TRACE', 'PROPFIND', 'get', 'Get', 'post', ''])
      expect(isSafeMethod(method)).toBe(false);
  });
});

describe('checkSameOrigin with TOOLGATE_PUBLIC_URL', () => {
  it('lets safe methods through whatever their headers say', () => {
    for (const method of ['GET', 'HEAD', 'OPTIONS']) {
      expect(verdict({ method, origin: 'http://evil.example', secFetchSite: 'cross-site' })).toEqual({ allowed: true });
    }
  });

  it('accepts the public origin, in any ASCII case', () => {
    expect(verdict({})).toEqual({ allowed: true });
    expect(verdict({ origin: 'HTTPS://TOOLGATE.EXAMPLE.COM' })).toEqual({ allowed: true });
    expect(verdict({ secFetchSite: 'same-origin' })).toEqual({ allowed: true });
    // A user-initiated request carrying the right Origin (a reloaded form post).
    expect(verdict({ secFetchSite: 'none' })).toEqual({ allowed: true });
  });

  it('checks every unsafe method, known or not', () => {
    for (const method of ['POST', 'PUT', 'PATCH', 'DELETE', 'PROPFIND', 'post']) {
      expect(verdict({ method, origin: 'http://evil.example' })).toEqual(refused('origin_mismatch'));
      expect(verdict({ method })).toEqual({ allowed: true });
    }
  });

  it('refuses Origin: null in every spelling, even with Sec-Fetch-Site: same-origin', () => {
    for (const origin of ['null', 'NULL', ' null ']) expect(verdict({ origin })).toEqual(refused('origin_null'));
    expect(verdict({ origin: 'null', secFetchSite: 'same-origin' })).toEqual(refused('origin_null'));
  });

  it('refuses other origins: hosts, schemes, ports, subdomains, look-alikes', () => {
    for (const origin of [
      'http://evil.example',
      'http://toolgate.example.com',
      'https://toolgate.example.com:8443',
      'https://evil.toolgate.example.com',
      'https://toolgate.example.com.evil.example',
      'https://toolgate.example.co',
      'https://xn--toolgate-9za.example.com',
      'https://127.0.0.1',
      'https://[::1]',
    ]) {
      expect(verdict({ origin }), origin).toEqual(refused('origin_mismatch'));
    }
  });

  it('treats a trailing dot as another origin (browsers keep it apart, cookies too)', () => {
    expect(verdict({ origin: 'https://toolgate.example.com.' })).toEqual(refused('origin_mismatch'));
    expect(verdict({ origin: 'https://toolgate.example.com.', publicUrl: 'https://toolgate.example.com./' })).toEqual({ allowed: true });
    expect(verdict({ publicUrl: 'https://toolgate.example.com.' })).toEqual(refused('origin_mismatch'));
  });

  it('refuses anything that is not exactly one serialized origin', () => {
    for (const origin of [
      'https://toolgate.example.com/',
      'https://toolgate.example.com/path',
      'https://toolgate.example.com:443',
      'https://toolgate.example.com?x=1',
      'https://toolgate.example.com#x',
      'https://user@toolgate.example.com',
      'https://%74oolgate.example.com',
      'https://toolgate%2eexample.com',
      'https://töolgate.example.com',
      'https://toolgate.example.com, https://toolgate.example.com',
      ' https://toolgate.example.com',
      'toolgate.example.com',
      '//toolgate.example.com',
      'file://',
      'data:text/html,x',
      'chrome-extension://abcdef',
      '',
      `https://${'a'.repeat(3000)}.example.com`,
    ]) {
      expect(verdict({ origin }), origin).toEqual(refused('origin_malformed'));
    }
  });

  it('refuses Sec-Fetch-Site cross-site and same-site, with or without an Origin', () => {
    for (const secFetchSite of ['cross-site', 'same-site', 'CROSS-SITE', ' same-site ']) {
      expect(verdict({ origin: null, secFetchSite })).toEqual(refused('cross_site'));
      expect(verdict({ secFetchSite })).toEqual(refused('cross_site'));
    }
  });

  it("on a missing Origin accepts only the browser's own same-origin word", () => {
    expect(verdict({ origin: null, secFetchSite: 'same-origin' })).toEqual({ allowed: true });
    expect(verdict({ origin: null })).toEqual(refused('origin_missing'));
    expect(verdict({ origin: null, secFetchSite: 'none' })).toEqual(refused('origin_missing'));
    expect(verdict({ origin: null, secFetchSite: 'bogus' })).toEqual(refused('origin_missing'));
  });

  it('ignores the Host header and the request URL when a public URL is set', () => {
    expect(verdict({ host: 'evil.example', origin: 'http://evil.example' })).toEqual(refused('origin_mismatch'));
    expect(verdict({ host: 'evil.example' })).toEqual({ allowed: true });
  });
});

describe('checkSameOrigin without a public URL (the request Host is the origin)', () => {
  const local = (overrides: Partial<SameOriginInput>) =>
    verdict({
      publicUrl: undefined,
      requestUrl: 'http://localhost:3000/api/v1/api-keys',
      host: 'localhost:3000',
      origin: 'http://localhost:3000',
      ...overrides,
    });

  it('accepts the Host with the request scheme', () => {
    expect(local({})).toEqual({ allowed: true });
    expect(local({ host: 'LOCALHOST:3000' })).toEqual({ allowed: true });
    expect(local({ host: 'toolgate.internal', origin: 'http://toolgate.internal' })).toEqual({ allowed: true });
    expect(local({ requestUrl: 'https://x/', host: 'toolgate.internal', origin: 'https://toolgate.internal' })).toEqual({ allowed: true });
  });

  it('compares ports, default ports included', () => {
    expect(local({ origin: 'http://localhost:3001' })).toEqual(refused('origin_mismatch'));
    expect(local({ origin: 'http://localhost' })).toEqual(refused('origin_mismatch'));
    expect(local({ host: 'localhost:80', origin: 'http://localhost' })).toEqual({ allowed: true });
    expect(local({ requestUrl: 'https://x/', host: 'example.com:443', origin: 'https://example.com' })).toEqual({ allowed: true });
    expect(local({ requestUrl: 'https://x/', host: 'example.com:443', origin: 'https://example.com:443' })).toEqual(
      refused('origin_malformed'),
    );
  });

  it('handles IPv6 hosts', () => {
    expect(local({ host: '[::1]:3000', origin: 'http://[::1]:3000' })).toEqual({ allowed: true });
    expect(local({ host: '[0:0:0:0:0:0:0:1]:3000', origin: 'http://[::1]:3000' })).toEqual({ allowed: true });
    expect(local({ host: '[::1]:3000', origin: 'http://[::2]:3000' })).toEqual(refused('origin_mismatch'));
    expect(local({ host: '[::1]:3000', origin: 'http://[0::1]:3000' })).toEqual(refused('origin_malformed'));
    expect(local({ host: '::1', origin: 'http://[::1]' })).toEqual({ allowed: false, reason: 'no_expected_origin', expected: null });
  });

  it('treats a trailing dot on the Host as its own origin', () => {
    expect(local({ host: 'localhost.:3000', origin: 'http://localhost.:3000' })).toEqual({ allowed: true });
    expect(local({ host: 'localhost.:3000' })).toEqual(refused('origin_mismatch'));
  });

  it('does not trust the scheme the Origin claims', () => {
    expect(local({ origin: 'https://localhost:3000' })).toEqual(refused('origin_mismatch'));
  });

  it('uses the request URL when there is no Host header', () => {
    expect(local({ host: null })).toEqual({ allowed: true });
    expect(local({ host: null, requestUrl: 'http://localhost/x' })).toEqual(refused('origin_mismatch'));
  });

  it('refuses when the Host cannot be an origin', () => {
    for (const host of ['', 'evil.example/x', 'user@localhost:3000', 'localhost:3000#', 'local host', 'localhost:99999', 'localhost:abc']) {
      expect(local({ host }), host).toEqual({ allowed: false, reason: 'no_expected_origin', expected: null });
    }
    expect(local({ requestUrl: 'ftp://localhost:3000/' })).toEqual({ allowed: false, reason: 'no_expected_origin', expected: null });
  });
});

describe('expectedOrigin and the message', () => {
  it('serializes the public URL to its origin', () => {
    expect(expectedOrigin({ publicUrl: 'https://Toolgate.Example.com:443/base/', host: null, requestUrl: 'http://x/' })).toBe(
      'https://toolgate.example.com',
    );
    expect(expectedOrigin({ publicUrl: 'http://127.0.0.1:3204', host: null, requestUrl: 'http://x/' })).toBe('http://127.0.0.1:3204');
  });

  it('names the expected origin and, for a missing Origin, the API-key alternative', () => {
    expect(crossSiteMessage({ allowed: false, reason: 'origin_mismatch', expected: PUBLIC })).toContain(PUBLIC);
    expect(crossSiteMessage({ allowed: false, reason: 'origin_missing', expected: PUBLIC })).toMatch(/API key/);
    expect(crossSiteMessage({ allowed: false, reason: 'no_expected_origin', expected: null })).toMatch(/TOOLGATE_PUBLIC_URL/);
  });
});
