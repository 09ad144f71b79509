// Builds each provider's schema.prisma from the model files in prisma/models/ (joined in name
// order). Shared by the generate script and the drift test so that both agree on what "up to
// date" means.
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import path from 'node:path';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const providers = ['sqlite', 'postgresql'];

export function schemaPath(provider) {
  return path.join(root, 'prisma', provider, 'schema.prisma');
}

export function renderSchema(provider) {
  const dir = path.join(root, 'prisma', 'models');
  const models = readdirSync(dir)
    .filter((name) => name.endsWith('.prisma'))
    .sort()
    .map((name) => readFileSync(path.join(dir, name), 'utf8').trimEnd())
    .join('\n\n');
  return `// Generated from prisma/models/*.prisma by scripts/prisma-generate.mjs. Do not edit.

generator client {
  provider        = "prisma-client"
  output          = "../../lib/generated/${provider}"
  moduleFormat    = "esm"
  previewFeatures = ["partialIndexes"]
}

datasource db {
  provider = "${provider}"
}

${models}
`;
}
