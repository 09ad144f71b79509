export { changeMemberRoleHandler as PATCH, removeMemberHandler as DELETE } from '@/lib/api/handlers/members';
