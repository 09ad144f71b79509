// Builds each provider's schema.prisma from prisma/models.prisma. Shared by the generate
// script and the drift test so that both agree on what "up to date" means.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import path from 'node:path';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const providers = ['sqlite', 'postgresql'];

export function schemaPath(provider) {
  return path.join(root, 'prisma', provider, 'schema.prisma');
}

export function renderSchema(provider) {
  const models = readFileSync(path.join(root, 'prisma', 'models.prisma'), 'utf8');
  return `// Generated from prisma/models.prisma by scripts/prisma-generate.mjs. Do not edit.

generator client {
  provider     = "prisma-client"
  output       = "../../lib/generated/${provider}"
  moduleFormat = "esm"
}

datasource db {
  provider = "${provider}"
}

${models}`;
}
