export { listMembersHandler as GET, inviteMemberHandler as POST } from '@/lib/api/handlers/members';
