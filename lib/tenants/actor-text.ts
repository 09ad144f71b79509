/**
 * Actors as texts name them: evidence keeps `user:<id>` and `api_key:<id>` (an id, not an
 * email: the hash chain cannot forget what it holds, and a person's address is theirs to
 * change), and what people read shows the label instead (lib/tenants/actor-labels.ts).
 */

/** `user:<id>` and `api_key:<id>` as they appear in stored texts (a cuid or similar id). */
const ACTOR = /\b(?:user|api_key):[A-Za-z0-9_-]{1,64}/g;

/** The actors a text names, to look their labels up. */
export function actorsIn(text: string | null | undefined): string[] {
  return text ? [...new Set(text.match(ACTOR) ?? [])] : [];
}

/** The text with each actor it names replaced by its label (left as it is when there is none). */
export function withActorLabels(text: string, labels: ReadonlyMap<string, string> | Record<string, string>): string {
  const get = (actor: string) => (labels instanceof Map ? labels.get(actor) : (labels as Record<string, string>)[actor]);
  return text.replace(ACTOR, (actor) => get(actor) ?? actor);
}

/** An actor no longer the tenant's (a removed member, a deleted key): its id, said so. */
export function removedActorLabel(actor: string): string {
  return `${actor} (removed)`;
}
