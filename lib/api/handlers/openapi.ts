import { defineRoute } from '../define-route';
import { openApiDocument } from '../openapi';

/** GET /api/v1/openapi.json — the API description, generated from the handlers' Zod schemas. */
export const openApiHandler = defineRoute({
  auth: 'none',
  handler: async () => ({ body: openApiDocument(), headers: { 'cache-control': 'public, max-age=300' } }),
});
