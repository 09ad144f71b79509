/**
 * What an API key may do. `validate` is for agents (runtime endpoints, approval polling);
 * `author` manages contract drafts and publishing; `admin` does everything, including
 * approving through the API and verifying the evidence chain.
 */
export const API_KEY_SCOPES = ['validate', 'author', 'admin'] as const;
export type ApiKeyScope = (typeof API_KEY_SCOPES)[number];

export function parseScopes(value: string): ApiKeyScope[] {
  return value.split(/\s+/).filter((s): s is ApiKeyScope => (API_KEY_SCOPES as readonly string[]).includes(s));
}

export function hasScope(granted: readonly ApiKeyScope[], needed: ApiKeyScope): boolean {
  if (granted.includes('admin')) return true;
  return granted.includes(needed);
}
