// The boundaries of the house, checked on every `npm run lint` (dependency-cruiser). Each rule
// names the architecture it protects; docs/development.md explains the layout they describe.
const { readdirSync, readFileSync } = require('node:fs');
const path = require('node:path');

/**
 * Client components: the files that start with 'use client', and so everything they import
 * ends up in the browser bundle. Found by reading the sources, so a new one is covered the day
 * it is written.
 */
function filesWith(directive, dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const file = path.posix.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'node_modules' || entry.name === 'generated' ? [] : filesWith(directive, file);
    if (!/\.tsx?$/.test(entry.name)) return [];
    return new RegExp(`^\\s*['"]use ${directive}['"]`).test(readFileSync(file, 'utf8')) ? [file] : [];
  });
}
const escape = (file) => file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const anyOf = (files) => `^(${files.map(escape).join('|')})$`;
const CLIENT = anyOf(['app', 'components', 'lib'].flatMap((dir) => filesWith('client', dir)));
/**
 * Server actions ('use server'): a client component that imports one gets a reference to call
 * over HTTP, not its code, so the walk from client components stops there. They are left out of
 * the graph; they live in app/, which may import anything in lib/.
 */
const SERVER_ACTIONS = anyOf(['app', 'components'].flatMap((dir) => filesWith('server', dir)));

/** What must never reach a browser: the database, its drivers, settings and secrets. */
const SERVER_ONLY = [
  '^lib/db\\.ts$',
  '^lib/db/',
  '^lib/generated/',
  '^lib/env\\.ts$',
  '^lib/auth/(auth|instance-secret)\\.ts$',
  '(^|/)node_modules/(@prisma/|prisma/|better-sqlite3/|pg/|nodemailer/)',
  // Better Auth's server; its browser client (better-auth/react) is what sign-in forms use.
  '(^|/)node_modules/better-auth/(?!dist/client/)',
];

/** The HTTP layer and the front ends: they may use the domain, never the other way round. */
const NOT_DOMAIN = '^(app|components|e2e|bench|scripts)/|^lib/(api|data-plane|testing)/';

module.exports = {
  forbidden: [
    {
      name: 'client-reaches-server-only',
      comment:
        'A client component must not reach the database, its drivers, settings or secrets, however indirectly: all of it would ship to the browser.',
      severity: 'error',
      from: { path: CLIENT },
      to: { path: SERVER_ONLY, reachable: true },
    },
    {
      name: 'domain-imports-front-end',
      comment:
        'lib/ is the domain: plain TypeScript that route handlers, pages, the CLI and tests share. It never imports app/, components/ or the HTTP layer (lib/api, lib/data-plane).',
      severity: 'error',
      from: { path: '^lib/', pathNot: [NOT_DOMAIN, '\\.test\\.tsx?$'] },
      to: { path: NOT_DOMAIN },
    },
    {
      name: 'sdk-imports-beyond-itself',
      comment:
        "packages/sdk is what agent developers install, on its own: it imports only its own files, zod and (in an adapter) that adapter's framework. Its tests, and their helpers in src/testing, may import the server to prove the two agree.",
      severity: 'error',
      from: { path: '^packages/sdk/src/', pathNot: ['\\.test\\.ts$', '^packages/sdk/src/testing/'] },
      to: { pathNot: '^packages/sdk/src/|(^|/)node_modules/(zod|ai|@ai-sdk/[^/]+|@openai/agents[^/]*)/' },
    },
    {
      name: 'components-import-database',
      comment:
        'Components read data through server components and Server Actions, never from the database client or its drivers themselves.',
      severity: 'error',
      from: { path: '^components/' },
      to: { path: ['^lib/db\\.ts$', '^lib/db/', '^lib/generated/', '(^|/)node_modules/(@types/)?(pg|better-sqlite3)/'] },
    },
    {
      name: 'clock-shift-outside-seed',
      comment:
        "Only the demo tenant's seed moves the decision path's clock into the past (lib/seed/seed-clock.ts); everything else reads the time through lib/clock/clock.ts.",
      severity: 'error',
      from: { pathNot: '^lib/(clock|seed)/' },
      to: { path: '^lib/clock/clock-shift\\.ts$' },
    },
    {
      name: 'no-circular',
      comment: 'An import cycle makes load order matter and concepts inseparable.',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    {
      name: 'not-to-unresolvable',
      comment: 'An import that resolves to nothing is a typo or a missing dependency.',
      severity: 'error',
      from: {},
      to: { couldNotResolve: true },
    },
  ],
  options: {
    // Generated code (the Prisma client) is a leaf here: its own cycles are its generator's affair.
    doNotFollow: { path: ['node_modules', '^lib/generated/'] },
    // node_modules stays in the graph (only not followed), so rules see which packages a file imports.
    exclude: { path: [SERVER_ACTIONS, '^(\\.next[^/]*|\\.toolgate|test-results|playwright-report)/', '^packages/[^/]+/dist/'] },
    tsConfig: { fileName: 'tsconfig.json' },
    tsPreCompilationDeps: true,
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      extensions: ['.ts', '.tsx', '.js', '.mjs', '.cjs', '.json'],
    },
    builtInModules: { add: ['bun'] },
  },
};
