import type { Role } from '@/lib/tenants/roles';

/** One line per role, as the invite form and the members page explain them. */
export const ROLE_HELP: Record<Role, string> = {
  viewer: 'reads everything',
  author: 'also edits and publishes contracts',
  approver: 'also decides approvals',
  admin: 'everything, including people, keys and settings',
};
