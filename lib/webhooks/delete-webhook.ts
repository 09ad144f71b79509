import { db } from '../db';
import { NotFoundError } from '../errors';

/**
 * Deletes a webhook and, with it, its queued deliveries: nothing more is sent to that URL. A
 * delivery already in flight finishes, and its outcome is dropped.
 */
export async function deleteWebhook(options: { tenantId: string; id: string }): Promise<{ id: string; deleted: true }> {
  const { count } = await db().webhook.deleteMany({ where: { id: options.id, tenantId: options.tenantId } });
  if (count === 0) throw new NotFoundError('webhook', options.id);
  return { id: options.id, deleted: true };
}
