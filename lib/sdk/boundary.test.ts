import { readFileSync, existsSync } from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';

/**
 * Agent code imports lib/sdk in whatever runtime the agent has. Everything reachable from the
 * entry point must therefore be plain TypeScript: Zod and pure modules, no database, Next or
 * Node built-ins. Type-only imports are erased at build time and are not followed.
 */

const root = path.resolve(import.meta.dirname, '../..');
const ALLOWED_PACKAGES = new Set(['zod']);
const IMPORT = /^\s*(?:import|export)\s+(?!type\b)(?:[^'"]*?\sfrom\s+)?['"]([^'"]+)['"]/gm;
const DYNAMIC = /\bimport\(\s*['"]([^'"]+)['"]\s*\)/g;

function resolveFile(specifier: string, from: string): string | null {
  const base = specifier.startsWith('@/') ? path.join(root, specifier.slice(2)) : specifier.startsWith('.') ? path.resolve(path.dirname(from), specifier) : null;
  if (base === null) return null;
  for (const candidate of [base, `${base}.ts`, `${base}.tsx`, path.join(base, 'index.ts')]) {
    if (existsSync(candidate) && candidate.match(/\.tsx?$/)) return candidate;
  }
  throw new Error(`cannot resolve ${specifier} from ${from}`);
}

function reachableFrom(entry: string) {
  const files = new Set<string>();
  const packages = new Map<string, string>();
  const queue = [entry];
  while (queue.length > 0) {
    const file = queue.pop()!;
    if (files.has(file)) continue;
    files.add(file);
    const source = readFileSync(file, 'utf8');
    for (const match of [...source.matchAll(IMPORT), ...source.matchAll(DYNAMIC)]) {
      const specifier = match[1]!;
      const target = resolveFile(specifier, file);
      if (target) queue.push(target);
      else packages.set(specifier, path.relative(root, file));
    }
  }
  return { files: [...files].map((f) => path.relative(root, f)).sort(), packages };
}

it('lib/sdk reaches only Zod and pure modules', () => {
  const { files, packages } = reachableFrom(path.join(root, 'lib/sdk/index.ts'));
  const foreign = [...packages].filter(([name]) => !ALLOWED_PACKAGES.has(name));
  expect(foreign, 'packages other than zod').toEqual([]);
  expect(files.filter((f) => /^(app|components)\/|^lib\/(db|generated|api|auth|evidence|approvals)\b|^lib\/db\.ts$|^lib\/env\.ts$/.test(f))).toEqual([]);
  // Pinned so that a new dependency is a reviewed decision.
  expect(files.filter((f) => !f.startsWith('lib/sdk/'))).toEqual([
    'lib/contracts/contract-schema.ts',
    'lib/contracts/contract-test-schema.ts',
    'lib/decisions.ts',
    'lib/json.ts',
    'lib/validation/ajv-issues.ts',
    'lib/validation/decide.ts',
    'lib/validation/error-codes.ts',
    'lib/validation/json-path.ts',
    'lib/validation/llm-message.ts',
  ]);
});
