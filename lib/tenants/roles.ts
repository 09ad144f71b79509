/** A user's role within a tenant, and what each role may do in the dashboard. */
export const ROLES = ['viewer', 'author', 'approver', 'admin'] as const;
export type Role = (typeof ROLES)[number];

/**
 * One edit permission per document kind (lib/documents/kinds), though authors and admins hold
 * all three today: a team can later narrow who owns its policies without touching contracts.
 * docs/members.md shows the table (a test keeps it equal to this one).
 */
export const PERMISSIONS = [
  'read',
  'edit_contracts',
  'edit_policies',
  'edit_surfaces',
  'decide_approvals',
  'manage_keys',
  'manage_members',
] as const;
export type Permission = (typeof PERMISSIONS)[number];

const GRANTS: Record<Role, readonly Permission[]> = {
  viewer: ['read'],
  author: ['read', 'edit_contracts', 'edit_policies', 'edit_surfaces'],
  approver: ['read', 'decide_approvals'],
  admin: ['read', 'edit_contracts', 'edit_policies', 'edit_surfaces', 'decide_approvals', 'manage_keys', 'manage_members'],
};

export function isRole(value: string): value is Role {
  return (ROLES as readonly string[]).includes(value);
}

export function can(role: Role, permission: Permission): boolean {
  return GRANTS[role].includes(permission);
}
