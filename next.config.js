// @ts-check
/** @type {import('next').NextConfig} */
const nextConfig = {
  // Native and wasm-backed server packages must be loaded by Node, not bundled.
  serverExternalPackages: ['better-sqlite3', '@prisma/adapter-better-sqlite3', '@prisma/adapter-pg', 'pg', '@prisma/schema-engine-wasm', 're2js'],
  poweredByHeader: false,
  typedRoutes: false,
};

export default nextConfig;
