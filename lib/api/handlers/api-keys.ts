import { z } from 'zod';
import { defineRoute } from '../define-route';
import { NO_QUERY } from '../no-query';
import { rowIdParam } from '../path-params';
import { isoDateTime } from '../response-schemas';
import { API_KEY_SCOPES } from '../../auth/api-key-scopes';
import { createApiKey, listApiKeys, MAX_KEY_LIFETIME_DAYS, revokeApiKey } from '../../auth/api-keys';
import { displayNameSchema } from '../../members/display-name';

const ApiKeySchema = z
  .object({
    id: z.string(),
    name: z.string(),
    prefix: z.string(),
    scopes: z.array(z.enum(API_KEY_SCOPES)),
    createdAt: isoDateTime,
    lastUsedAt: isoDateTime.nullable(),
    revokedAt: isoDateTime.nullable(),
    expiresAt: isoDateTime.nullable().describe('When the key stops working (401, details.reason key_expired); null: never.'),
    createdBy: z
      .object({ userId: z.string(), email: z.string(), member: z.boolean() })
      .strict()
      .nullable()
      .describe(
        'The person the key belongs to (who made it, or whose key made it) and whether they are still a member; null for a key of nobody’s.',
      ),
    effectiveScopes: z
      .array(z.enum(API_KEY_SCOPES))
      .describe(
        'The scopes the key has now: its `admin` and `author` scopes go no further than its person’s current role (a key that only had `admin` keeps `validate`).',
      ),
  })
  .strict();

/** GET /api/v1/api-keys — the tenant's keys (never their values). */
export const listApiKeysHandler = defineRoute({
  auth: { apiKey: 'admin', session: 'manage_keys' },
  query: NO_QUERY,
  response: z.object({ api_keys: z.array(ApiKeySchema) }).strict(),
  handler: async ({ caller }) => ({ body: { api_keys: await listApiKeys({ tenantId: caller.tenantId }) } }),
});

/** POST /api/v1/api-keys — create a key; the response is the only time its value is shown. */
export const createApiKeyHandler = defineRoute({
  auth: { apiKey: 'admin', session: 'manage_keys' },
  body: z
    .object({
      name: displayNameSchema(100),
      scopes: z.array(z.enum(API_KEY_SCOPES)).min(1),
      expires_in_days: z
        .number()
        .int()
        .min(1)
        .max(MAX_KEY_LIFETIME_DAYS)
        .optional()
        .describe('Days until the key stops working; leave it out for a key that never expires.'),
    })
    .strict(),
  response: z.object({ key: z.string().describe('The key itself, shown this once.'), api_key: ApiKeySchema }).strict(),
  handler: async ({ caller, body }) => {
    const created = await createApiKey({
      tenantId: caller.tenantId,
      name: body.name,
      scopes: body.scopes,
      expiresInDays: body.expires_in_days,
      // A key made with a key belongs to that key's person (or to nobody, as it does).
      ...(caller.kind === 'session' ? { createdById: caller.userId } : { createdByKeyId: caller.apiKeyId }),
    });
    return { status: 201, body: { key: created.key, api_key: created.apiKey } };
  },
});

/** POST /api/v1/api-keys/{id}/revoke — a revoked key stops working at once. */
export const revokeApiKeyHandler = defineRoute({
  auth: { apiKey: 'admin', session: 'manage_keys' },
  params: z.object({ id: rowIdParam('api_key') }),
  response: z.object({ api_key: ApiKeySchema }).strict(),
  handler: async ({ caller, params }) => ({ body: { api_key: await revokeApiKey({ tenantId: caller.tenantId, id: params.id }) } }),
});
