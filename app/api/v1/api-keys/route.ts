import { listApiKeysHandler, createApiKeyHandler } from '@/lib/api/handlers/api-keys';
import { mountRoute } from '@/lib/api/mount-route';

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = mountRoute({ GET: listApiKeysHandler, POST: createApiKeyHandler });
