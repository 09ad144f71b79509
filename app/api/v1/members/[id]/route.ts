import { changeMemberRoleHandler, removeMemberHandler } from '@/lib/api/handlers/members';
import { mountRoute } from '@/lib/api/mount-route';

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = mountRoute({ PATCH: changeMemberRoleHandler, DELETE: removeMemberHandler });
