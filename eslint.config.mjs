import { defineConfig, globalIgnores } from 'eslint/config';
import nextVitals from 'eslint-config-next/core-web-vitals';
import nextTs from 'eslint-config-next/typescript';

// What client components and components may import is checked by dependency-cruiser
// (.dependency-cruiser.cjs, run by `npm run lint` after ESLint), which follows imports through
// every file in between rather than looking at one file's own lines.
export default defineConfig([
  ...nextVitals,
  ...nextTs,
  globalIgnores([
    '.next/**',
    '.next-*/**',
    '.toolgate/**',
    'node_modules/**',
    'lib/generated/**',
    'data/**',
    'test-results/**',
    'playwright-report/**',
    'next-env.d.ts',
    'packages/*/dist/**',
  ]),
  {
    // CommonJS, as the tools that read these configs expect: require is how it imports.
    files: ['**/*.cjs'],
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
]);
