import { mountRoute } from '@/lib/api/mount-route';
import { metricsHandler } from '@/lib/api/handlers/metrics';

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = mountRoute({ GET: metricsHandler });
