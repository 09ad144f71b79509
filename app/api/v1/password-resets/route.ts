// Generated from the route table (lib/api/routes.ts) by `npm run routes`; do not edit.
import { mountTableRoute } from '@/lib/api/routes';

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = mountTableRoute('/api/v1/password-resets');
