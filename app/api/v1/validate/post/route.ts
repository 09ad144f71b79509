import { validatePostHandler } from '@/lib/api/handlers/validate';
import { mountRoute } from '@/lib/api/mount-route';

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = mountRoute({ POST: validatePostHandler });
