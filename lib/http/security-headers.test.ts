import { describe, expect, it } from 'vitest';
import nextConfig from '../../next.config.js';
import { API_SECURITY_HEADERS } from './security-headers';

type HeaderRule = { source: string; headers: { key: string; value: string }[] };

async function headersFor(phase: string, path: 'page' | 'api' | 'static'): Promise<Record<string, string>> {
  const rules = (await nextConfig(phase).headers?.()) as HeaderRule[];
  const out: Record<string, string> = {};
  // Next applies every matching rule in order; a later one overrides an earlier one's header.
  const own = { page: null, api: '/api/:path*', static: '/_next/static/:path*' }[path];
  for (const rule of rules.filter((r) => r.source === '/:path*' || r.source === own)) {
    for (const { key, value } of rule.headers) out[key.toLowerCase()] = value;
  }
  return out;
}

describe('security headers', () => {
  it("are the same on Next API answers as on the data plane's", async () => {
    expect(await headersFor('phase-production-server', 'api')).toEqual(API_SECURITY_HEADERS);
  });

  it('forbid framing on pages and keep them to this origin', async () => {
    const page = await headersFor('phase-production-server', 'page');
    expect(page['x-frame-options']).toBe('DENY');
    expect(page['x-content-type-options']).toBe('nosniff');
    expect(page['referrer-policy']).toBe('strict-origin-when-cross-origin');
    const csp = page['content-security-policy'] ?? '';
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain("worker-src 'self' blob:");
    expect(csp).toContain("object-src 'none'");
    expect(csp).not.toContain('unsafe-eval');
    expect(csp).not.toMatch(/\bhttps?:|\*/);
  });

  it("let worker scripts, and only them, evaluate code (Ajv in the studio's lint worker)", async () => {
    const worker = (await headersFor('phase-production-server', 'static'))['content-security-policy'] ?? '';
    expect(worker).toContain("script-src 'self' 'unsafe-eval'");
    expect(worker).toContain("frame-ancestors 'none'");
    expect(worker).not.toContain('unsafe-inline');
    expect((await headersFor('phase-production-server', 'page'))['content-security-policy']).not.toContain('unsafe-eval');
  });

  it("let the development server evaluate code (React's dev build) and reach its reload socket", async () => {
    const csp = (await headersFor('phase-development-server', 'page'))['content-security-policy'] ?? '';
    expect(csp).toContain("'unsafe-eval'");
    expect(csp).toContain('ws:');
  });
});
