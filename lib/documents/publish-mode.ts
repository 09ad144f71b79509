/**
 * `enforce` serves a version; `shadow` freezes it and evaluates it beside the served version on
 * every call, recording its would-be decision without letting it decide anything. A shadow
 * version is promoted by publishing it again with `enforce`; a newer shadow retires the
 * previous one (status `retired`).
 */
export const PUBLISH_MODES = ['enforce', 'shadow'] as const;
export type PublishMode = (typeof PUBLISH_MODES)[number];

export function publishableFrom(status: string, mode: PublishMode): boolean {
  return status === 'draft' || (status === 'shadow' && mode === 'enforce');
}
