import { defineConfig } from 'vitest/config';
import path from 'node:path';

const root = path.dirname(new URL(import.meta.url).pathname);
// The SDK is a workspace package; tests (like the app, through tsconfig paths) use its sources.
const alias = [
  { find: /^@toolgate\/sdk$/, replacement: path.join(root, 'packages/sdk/src/index.ts') },
  { find: /^@toolgate\/sdk\/(.*)$/, replacement: path.join(root, 'packages/sdk/src/$1.ts') },
  { find: /^@\//, replacement: `${root}/` },
  // 'server-only' throws outside React Server Components; tests run route handlers directly.
  { find: /^server-only$/, replacement: path.join(root, 'lib/testing/server-only-stub.ts') },
];

const integration = (provider: 'sqlite' | 'postgresql') => ({
  resolve: { alias },
  test: {
    name: `int-${provider}`,
    // The schema drift check compares both databases itself, so it runs once.
    include: [
      'app/**/*.int.test.ts',
      'lib/**/*.int.test.ts',
      'packages/*/src/**/*.int.test.ts',
      'bench/**/*.int.test.ts',
      ...(provider === 'sqlite' ? ['prisma/**/*.int.test.ts'] : []),
    ],
    // *.pg.int.test.ts need what only PostgreSQL has (several writer processes, row locks).
    exclude: ['node_modules/**', ...(provider === 'sqlite' ? ['**/*.pg.int.test.ts'] : [])],
    env: { TEST_DB_PROVIDER: provider },
    setupFiles: ['lib/testing/integration-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Each file gets its own database; two workers keep the 2-core machine responsive.
    maxWorkers: 2,
    sequence: { groupOrder: provider === 'sqlite' ? 1 : 2 },
  },
});

export default defineConfig({
  resolve: { alias },
  test: {
    projects: [
      {
        resolve: { alias },
        test: {
          name: 'unit',
          sequence: { groupOrder: 0 },
          // Property tests (thousands of generated patterns, hashes) take 1-3 s alone and several
          // times that on a loaded 2-core machine: the default 5 s failed them there, not a bug.
          testTimeout: 20_000,
          include: ['lib/**/*.test.ts', 'packages/*/src/**/*.test.ts', 'scripts/**/*.test.ts', 'components/**/*.test.ts'],
          exclude: ['**/*.int.test.ts', 'node_modules/**'],
        },
      },
      integration('sqlite'),
      integration('postgresql'),
    ],
  },
});
