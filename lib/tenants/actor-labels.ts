import { db } from '../db';
import { removedActorLabel } from './actor-text';

/**
 * What to show people for the actors approvals and evidence record: `user:<id>` becomes the
 * member's email, `api_key:<id>` the key's name. Looked up in the tenant only: an id that is
 * not (or no longer) the tenant's member or key is shown as itself marked "(removed)", never as
 * what another tenant knows of it. Every actor asked about gets a label.
 */
export async function actorLabels(tenantId: string, actors: (string | null | undefined)[]): Promise<Map<string, string>> {
  const wanted = [...new Set(actors.filter((a): a is string => typeof a === 'string'))];
  const userIds = wanted.filter((a) => a.startsWith('user:')).map((a) => a.slice('user:'.length));
  const keyIds = wanted.filter((a) => a.startsWith('api_key:')).map((a) => a.slice('api_key:'.length));
  const [members, keys] = await Promise.all([
    userIds.length
      ? db().membership.findMany({
          where: { tenantId, userId: { in: userIds } },
          select: { userId: true, user: { select: { email: true } } },
        })
      : [],
    keyIds.length ? db().apiKey.findMany({ where: { tenantId, id: { in: keyIds } }, select: { id: true, name: true } }) : [],
  ]);
  const labels = new Map<string, string>();
  for (const m of members) labels.set(`user:${m.userId}`, m.user.email);
  for (const k of keys) labels.set(`api_key:${k.id}`, `key ${k.name}`);
  for (const actor of wanted)
    if (!labels.has(actor) && (actor.startsWith('user:') || actor.startsWith('api_key:'))) labels.set(actor, removedActorLabel(actor));
  return labels;
}
