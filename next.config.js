// @ts-check
/** @type {import('next').NextConfig} */
const nextConfig = {
  // Native and wasm-backed server packages must be loaded by Node, not bundled.
  serverExternalPackages: ['better-sqlite3', '@prisma/adapter-better-sqlite3', '@prisma/adapter-pg', 'pg', '@prisma/schema-engine-wasm', 're2js'],
  poweredByHeader: false,
  // TOOLGATE_DIST_DIR lets two builds of one checkout live side by side (e.g. parallel e2e
  // runs during development); scripts/start.ts reads the same variable.
  distDir: process.env.TOOLGATE_DIST_DIR || '.next',
  typedRoutes: false,
};

export default nextConfig;
