#!/usr/bin/env node
// `npx toolgate …`. The CLI is TypeScript (scripts/toolgate.ts) and imports with the repo's `@/`
// paths, so it is loaded through tsx's API with this repo's tsconfig named explicitly: the
// command then works from any directory, not only the repo root.
import { fileURLToPath } from 'node:url';
import { tsImport } from 'tsx/esm/api';

await tsImport('../scripts/toolgate.ts', {
  parentURL: import.meta.url,
  tsconfig: fileURLToPath(new URL('../tsconfig.json', import.meta.url)),
});
