import { listWebhooksHandler, createWebhookHandler } from '@/lib/api/handlers/webhooks';
import { mountRoute } from '@/lib/api/mount-route';

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = mountRoute({ GET: listWebhooksHandler, POST: createWebhookHandler });
