export { revokeInvitationHandler as DELETE } from '@/lib/api/handlers/members';
