import { overviewHandler } from '@/lib/api/handlers/overview';
import { mountRoute } from '@/lib/api/mount-route';

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = mountRoute({ GET: overviewHandler });
