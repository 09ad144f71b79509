import 'server-only';
import type { Role } from '@/lib/tenants/roles';

export function readOnlyReason(role: Role): string {
  return `Only authors and admins can edit or publish contracts; your role is ${role}.`;
}
