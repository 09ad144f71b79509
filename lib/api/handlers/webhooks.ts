import { z } from 'zod';
import { defineRoute } from '../define-route';
import { NO_QUERY } from '../no-query';
import { rowIdParam } from '../path-params';
import { createWebhook } from '../../webhooks/create-webhook';
import { listWebhooks } from '../../webhooks/list-webhooks';
import { deleteWebhook } from '../../webhooks/delete-webhook';
import { WEBHOOK_EVENTS } from '../../webhooks/webhook-events';
import { NewWebhookSchema } from '../../webhooks/webhook-url';

const manage = { apiKey: 'admin', session: 'manage_keys' } as const;

const DeliverySchema = z
  .object({
    id: z.string(),
    event: z.string(),
    status: z.string(),
    attempts: z.number().int(),
    last_error: z.string().nullable(),
    created_at: z.string(),
    delivered_at: z.string().nullable(),
    next_attempt_at: z.string().nullable(),
  })
  .strict();
const WebhookSchema = z
  .object({
    id: z.string(),
    url: z.string(),
    events: z.array(z.enum(WEBHOOK_EVENTS)),
    created_at: z.string(),
    recent_deliveries: z.array(DeliverySchema),
  })
  .strict();

/** POST /api/v1/webhooks — register a webhook; the answer's `secret` is shown only once. */
export const createWebhookHandler = defineRoute({
  auth: manage,
  body: NewWebhookSchema,
  response: WebhookSchema.extend({ secret: z.string() }).strict(),
  handler: async ({ caller, body }) => ({
    status: 201,
    body: await createWebhook({ tenantId: caller.tenantId, url: body.url, events: body.events }),
  }),
});

/** GET /api/v1/webhooks — the tenant's webhooks with their latest deliveries. */
export const listWebhooksHandler = defineRoute({
  auth: manage,
  query: NO_QUERY,
  response: z.object({ webhooks: z.array(WebhookSchema) }).strict(),
  handler: async ({ caller }) => ({ body: { webhooks: await listWebhooks({ tenantId: caller.tenantId }) } }),
});

/** DELETE /api/v1/webhooks/{id} — stop sending to a webhook and drop its queued deliveries. */
export const deleteWebhookHandler = defineRoute({
  auth: manage,
  params: z.object({ id: rowIdParam('webhook') }),
  response: z.object({ id: z.string(), deleted: z.literal(true) }).strict(),
  handler: async ({ caller, params }) => ({ body: await deleteWebhook({ tenantId: caller.tenantId, id: params.id }) }),
});
