export { listWebhooksHandler as GET, createWebhookHandler as POST } from '@/lib/api/handlers/webhooks';
