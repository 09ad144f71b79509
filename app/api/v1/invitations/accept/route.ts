export { acceptInvitationHandler as POST } from '@/lib/api/handlers/members';
