import { betterAuthHandler } from '@/lib/api/handlers/better-auth';
import { mountRoute } from '@/lib/api/mount-route';

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = mountRoute({ GET: betterAuthHandler, POST: betterAuthHandler });
