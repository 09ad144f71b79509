export { switchSessionTenantHandler as POST } from '@/lib/api/handlers/members';
