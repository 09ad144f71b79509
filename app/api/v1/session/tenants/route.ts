export { listSessionTenantsHandler as GET } from '@/lib/api/handlers/members';
