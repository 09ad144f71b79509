import { openApiHandler } from '@/lib/api/handlers/openapi';
import { mountRoute } from '@/lib/api/mount-route';

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = mountRoute({ GET: openApiHandler });
