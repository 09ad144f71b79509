import { listViolationsHandler } from '@/lib/api/handlers/violations';
import { mountRoute } from '@/lib/api/mount-route';

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = mountRoute({ GET: listViolationsHandler });
