import { lintHandler } from '@/lib/api/handlers/lint';
import { mountRoute } from '@/lib/api/mount-route';

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = mountRoute({ POST: lintHandler });
