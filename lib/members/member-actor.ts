import type { AdminActor } from '../evidence/record-admin-evidence';

/** How an actor is stored in `Invitation.invitedBy` and shown in lists: `user:<id>`, `api_key:<id>` or `system`. */
export function actorRef(actor: AdminActor): string {
  if (actor.kind === 'user') return `user:${actor.userId}`;
  if (actor.kind === 'api_key') return `api_key:${actor.apiKeyId}`;
  return 'system';
}
