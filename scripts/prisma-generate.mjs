// postinstall: writes both providers' schemas and generates one Prisma client for each.
// `prisma generate` never runs the schema engine, but refuses to start unless it can find or
// download one; on these offline machines any existing file satisfies it (docs/development.md).
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync, existsSync } from 'node:fs';
import path from 'node:path';
import { providers, renderSchema, root, schemaPath } from './prisma-schema.mjs';

const env = {
  ...process.env,
  PRISMA_SCHEMA_ENGINE_BINARY: process.env.PRISMA_SCHEMA_ENGINE_BINARY ?? process.execPath,
  PRISMA_HIDE_UPDATE_MESSAGE: '1',
  CHECKPOINT_DISABLE: '1',
};

const prismaCli = path.join(root, 'node_modules', 'prisma', 'build', 'index.js');
if (!existsSync(prismaCli)) {
  console.error('prisma is not installed yet; run npm install');
  process.exit(1);
}

for (const provider of providers) {
  const file = schemaPath(provider);
  const text = renderSchema(provider);
  mkdirSync(path.dirname(file), { recursive: true });
  if (!existsSync(file) || readFileSync(file, 'utf8') !== text) writeFileSync(file, text);
  execFileSync(process.execPath, [prismaCli, 'generate', '--schema', file], {
    cwd: root,
    env,
    stdio: ['ignore', 'inherit', 'inherit'],
  });
}
