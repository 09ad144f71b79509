import { z } from 'zod';
import type { ApiRoute } from './define-route';
import { templateParams } from './match-route';
import { APP_ERROR_CODES } from '../errors';

function schema(zodSchema: z.ZodType, io: 'input' | 'output'): unknown {
  // `unrepresentable: 'any'`: the plain-object checks (see lib/json.ts) become `{}`.
  return z.toJSONSchema(zodSchema, { target: 'openapi-3.0', io, unrepresentable: 'any' });
}

/** The OpenAPI 3 document of a route table, generated from the same Zod schemas the handlers parse with. */
export function openApiDocument(routes: readonly ApiRoute[]): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of routes) {
    const spec = route.handler.spec;
    const operation: Record<string, unknown> = { summary: route.summary, responses: {} as Record<string, unknown> };
    const params = templateParams(route.path).map((name) => {
      const param = spec.params?.shape[name];
      return { name, in: 'path', required: true, schema: param ? schema(param, 'input') : {} };
    });
    if (spec.query) {
      const query = schema(spec.query, 'input') as { properties?: Record<string, unknown>; required?: string[] };
      for (const [name, s] of Object.entries(query.properties ?? {}))
        params.push({ name, in: 'query', required: query.required?.includes(name) ?? false, schema: s });
    }
    if (params.length) operation.parameters = params;
    if (spec.body) operation.requestBody = { required: true, content: { 'application/json': { schema: schema(spec.body, 'input') } } };
    if (spec.auth !== 'none') {
      operation.security = [
        ...(spec.auth.apiKey ? [{ apiKey: typeof spec.auth.apiKey === 'string' ? [spec.auth.apiKey] : [...spec.auth.apiKey] }] : []),
        ...(spec.auth.session ? [{ session: [spec.auth.session] }] : []),
      ];
    }
    const content: Record<string, unknown> = { 'application/json': { schema: schema(spec.response, 'output') } };
    for (const [mediaType, body] of Object.entries(spec.otherMediaTypes ?? {})) content[mediaType] = { schema: schema(body, 'output') };
    (operation.responses as Record<string, unknown>)['200'] = { description: 'OK', content };
    (operation.responses as Record<string, unknown>).default = {
      description: 'Error envelope',
      content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
    };
    (paths[route.path] ??= {})[route.method.toLowerCase()] = operation;
  }
  return {
    openapi: '3.0.3',
    info: { title: 'Toolgate API', version: '1' },
    paths,
    components: {
      securitySchemes: {
        apiKey: { type: 'http', scheme: 'bearer', description: 'A Toolgate API key; the required scope is listed per operation.' },
        session: {
          type: 'apiKey',
          in: 'cookie',
          name: 'better-auth.session_token',
          description: 'A dashboard session; the required permission is listed per operation.',
        },
      },
      schemas: {
        Error: {
          type: 'object',
          required: ['error', 'request_id'],
          properties: {
            error: {
              type: 'object',
              required: ['code', 'message'],
              properties: {
                code: { type: 'string', enum: Object.keys(APP_ERROR_CODES) },
                message: { type: 'string' },
                details: { type: 'object' },
              },
            },
            request_id: { type: 'string' },
          },
        },
      },
    },
  };
}
