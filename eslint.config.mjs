import { defineConfig, globalIgnores } from 'eslint/config';
import { builtinRules } from 'eslint/use-at-your-own-risk';
import nextVitals from 'eslint-config-next/core-web-vitals';
import nextTs from 'eslint-config-next/typescript';

// Modules that open database connections or load native drivers. Imported from browser code,
// they either break the build with an obscure bundler error or ship server code to every
// visitor; the lint error names the problem at the line that causes it.
const serverOnlyImports = {
  paths: [
    { name: 'pg', message: 'Database drivers are server-only.' },
    { name: 'better-sqlite3', message: 'Database drivers are server-only.' },
  ],
  patterns: [
    {
      group: ['@/lib/db', '@/lib/db/**', '**/lib/db', '**/lib/db/**', 'lib/db', 'lib/db/**', '**/generated/**'],
      message: 'The database client is server-only: read through a server component or a Server Action instead.',
    },
  ],
};

// no-restricted-imports cannot select files by content, so this wraps it to run only in files
// that start with 'use client' — a client component can live anywhere under app/.
const coreRestrictedImports = builtinRules.get('no-restricted-imports');
const clientBoundary = {
  meta: { ...coreRestrictedImports.meta, docs: { description: "no-restricted-imports, for 'use client' files only" } },
  create(context) {
    const prologue = [];
    for (const node of context.sourceCode.ast.body) {
      if (node.type !== 'ExpressionStatement' || typeof node.directive !== 'string') break;
      prologue.push(node.directive);
    }
    return prologue.includes('use client') ? coreRestrictedImports.create(context) : {};
  },
};

export default defineConfig([
  ...nextVitals,
  ...nextTs,
  globalIgnores(['.next/**', '.next-*/**', '.toolgate/**', 'node_modules/**', 'lib/generated/**', 'data/**', 'test-results/**', 'playwright-report/**', 'next-env.d.ts']),
  {
    files: ['components/**'],
    rules: { 'no-restricted-imports': ['error', serverOnlyImports] },
  },
  {
    ignores: ['components/**'],
    plugins: { toolgate: { rules: { 'client-boundary': clientBoundary } } },
    rules: { 'toolgate/client-boundary': ['error', serverOnlyImports] },
  },
]);
