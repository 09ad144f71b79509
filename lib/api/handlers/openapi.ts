import { z } from 'zod';
import { defineRoute, type ApiRoute } from '../define-route';
import { NO_QUERY } from '../no-query';
import { openApiDocument } from '../openapi';

const OpenApiDocumentSchema = z.looseObject({
  openapi: z.string(),
  info: z.looseObject({ title: z.string(), version: z.string() }),
  paths: z.record(z.string(), z.looseObject({})),
  components: z.looseObject({}),
});

/**
 * GET /api/v1/openapi.json — the API description, generated from the route table and the
 * handlers' Zod schemas. The table is passed in (lib/api/routes.ts lists this route too).
 */
export function openApiHandler(routes: () => readonly ApiRoute[]) {
  return defineRoute({
    auth: 'none',
    query: NO_QUERY,
    response: OpenApiDocumentSchema,
    handler: async () => ({ body: openApiDocument(routes()), headers: { 'cache-control': 'public, max-age=300' } }),
  });
}
