// For Prisma's own CLI on machines that can fetch its schema engine (`npx prisma migrate deploy`,
// `npx prisma studio`): the same provider choice as the app, from DATABASE_URL. Toolgate itself
// migrates with the WebAssembly engine (lib/db/schema-engine.ts) and never needs this file.
import { defineConfig } from 'prisma/config';

const url = process.env.DATABASE_URL ?? 'file:./data/toolgate.db';
const provider = /^postgres(ql)?:\/\//i.test(url) ? 'postgresql' : 'sqlite';

export default defineConfig({
  schema: `prisma/${provider}/schema.prisma`,
  migrations: { path: `prisma/${provider}/migrations` },
  datasource: { url },
});
