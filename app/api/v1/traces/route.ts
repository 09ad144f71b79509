import { listTracesHandler } from '@/lib/api/handlers/traces';
import { mountRoute } from '@/lib/api/mount-route';

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = mountRoute({ GET: listTracesHandler });
