import { z } from 'zod';
import { defineTool } from '../define-tool.ts';

/**
 * Two small tools in the shape agent code writes them: the docs example, the fixture the
 * import-tools tests load, and a quick way to try `npm run import-tools` against a server.
 */

export const createUser = defineTool({
  name: 'create_user',
  description: 'Create a new user',
  input: z.object({
    email: z.email().describe("The new user's e-mail address"),
    name: z.string().min(1),
    age: z.number().int().min(0).max(150),
  }),
  output: z.object({ id: z.uuid(), created: z.boolean() }),
  contract: { id: 'users.create', owner: 'team-identity', kind: 'mutation', side_effect_level: 'write', idempotent: false },
  execute: async () => ({ id: globalThis.crypto.randomUUID(), created: true }),
});

export const searchDocs = defineTool({
  name: 'search_docs',
  description: 'Search the documentation',
  input: z.object({
    query: z.string().describe('Search query'),
    limit: z.number().optional().default(10),
  }),
  output: z.object({ hits: z.array(z.object({ title: z.string(), url: z.string() })) }),
  contract: { id: 'docs.search', owner: 'team-docs', kind: 'search', side_effect_level: 'read_only', idempotent: true },
  execute: async ({ query, limit }) => ({
    hits: [{ title: `Results for ${query}`, url: `https://docs.example.com/search?q=${encodeURIComponent(query)}&limit=${limit}` }],
  }),
});
