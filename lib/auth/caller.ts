import type { ApiKeyScope } from './api-key-scopes';
import type { Role } from '../tenants/roles';

/** Who is calling. Every service call below the wrapper is scoped by `tenantId`. */
export type Caller =
  | { kind: 'api_key'; tenantId: string; apiKeyId: string; scopes: ApiKeyScope[] }
  | { kind: 'session'; tenantId: string; userId: string; role: Role };
