/** A user's role within a tenant, and what each role may do in the dashboard. */
export const ROLES = ['viewer', 'author', 'approver', 'admin'] as const;
export type Role = (typeof ROLES)[number];

export type Permission = 'read' | 'edit_contracts' | 'decide_approvals' | 'manage_keys' | 'manage_members';

const PERMISSIONS: Record<Role, readonly Permission[]> = {
  viewer: ['read'],
  author: ['read', 'edit_contracts'],
  approver: ['read', 'decide_approvals'],
  admin: ['read', 'edit_contracts', 'decide_approvals', 'manage_keys', 'manage_members'],
};

export function isRole(value: string): value is Role {
  return (ROLES as readonly string[]).includes(value);
}

export function can(role: Role, permission: Permission): boolean {
  return PERMISSIONS[role].includes(permission);
}
