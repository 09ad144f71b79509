export { deleteWebhookHandler as DELETE } from '@/lib/api/handlers/webhooks';
