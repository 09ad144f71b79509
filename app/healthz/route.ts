import { mountRoute } from '@/lib/api/mount-route';
import { healthHandler } from '@/lib/api/handlers/health';

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = mountRoute({ GET: healthHandler });
