import { mountRouteTable } from '@/lib/api/mount-route';
import { matchApiRoute } from '@/lib/api/routes';

// Every /api/v1 route, dispatched through the route table (lib/api/routes.ts).
export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = mountRouteTable(matchApiRoute);
