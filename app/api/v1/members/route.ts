import { listMembersHandler, inviteMemberHandler } from '@/lib/api/handlers/members';
import { mountRoute } from '@/lib/api/mount-route';

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = mountRoute({ GET: listMembersHandler, POST: inviteMemberHandler });
