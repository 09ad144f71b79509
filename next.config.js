// @ts-check
import { PHASE_DEVELOPMENT_SERVER } from 'next/constants.js';

/**
 * Headers on every page and API answer (docs/security.md). `frame-ancestors 'none'` and
 * X-Frame-Options (for browsers before CSP 2) stop another site from framing a page, so nobody
 * can be tricked into clicking Approve inside someone else's page.
 *
 * Scripts: Next's hydration needs inline scripts ('unsafe-inline'; nonces would make every page
 * dynamic). Workers load from this origin (bundled Monaco) or blob:.
 * Styles: Monaco and React set inline styles. Nothing loads from another origin.
 *
 * @param {boolean} dev React's development build evaluates code for its stack traces.
 */
function pageCsp(dev) {
  return [
    "default-src 'self'",
    `script-src 'self' 'unsafe-inline'${dev ? " 'unsafe-eval'" : ''}`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self' data:",
    `connect-src 'self'${dev ? ' ws: wss:' : ''}`,
    "worker-src 'self' blob:",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/**
 * Workers take their policy from their own script's answer, not from the page. The studio's lint
 * worker compiles contract JSON Schemas with Ajv, which generates code, so scripts under
 * /_next/static (where Turbopack's worker entry lives) may evaluate code; the pages that load
 * them may not. A script file's policy means nothing when a page loads it as a <script>.
 */
const WORKER_CSP =
  "default-src 'self'; script-src 'self' 'unsafe-eval'; worker-src 'self' blob:; object-src 'none'; frame-ancestors 'none'";

/** JSON answers are never rendered: nothing may run or load in them (lib/http/security-headers.ts). */
const API_CSP = "default-src 'none'; frame-ancestors 'none'";

const COMMON_HEADERS = [
  { key: 'X-Content-Type-Options', value: 'nosniff' },
  { key: 'X-Frame-Options', value: 'DENY' },
  { key: 'Referrer-Policy', value: 'strict-origin-when-cross-origin' },
];

/** @type {(phase: string) => import('next').NextConfig} */
export default function nextConfig(phase) {
  const dev = phase === PHASE_DEVELOPMENT_SERVER;
  return {
    // Native and wasm-backed server packages must be loaded by Node, not bundled.
    serverExternalPackages: [
      'better-sqlite3',
      '@prisma/adapter-better-sqlite3',
      '@prisma/adapter-pg',
      'pg',
      '@prisma/schema-engine-wasm',
      're2js',
    ],
    poweredByHeader: false,
    // TOOLGATE_DIST_DIR lets two builds of one checkout live side by side (e.g. parallel e2e
    // runs during development); scripts/start.ts reads the same variable.
    distDir: process.env.TOOLGATE_DIST_DIR || '.next',
    typedRoutes: false,
    async headers() {
      return [
        // The later rule wins for the same header: API answers and worker scripts get their own.
        { source: '/:path*', headers: [...COMMON_HEADERS, { key: 'Content-Security-Policy', value: pageCsp(dev) }] },
        { source: '/api/:path*', headers: [{ key: 'Content-Security-Policy', value: API_CSP }] },
        { source: '/_next/static/:path*', headers: [{ key: 'Content-Security-Policy', value: WORKER_CSP }] },
      ];
    },
  };
}
