import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { can, isRole, PERMISSIONS, ROLES } from './roles';

const holders = (permission: (typeof PERMISSIONS)[number]) => ROLES.filter((role) => can(role, permission));

describe('roles and permissions', () => {
  it('grants every document kind’s edit permission to authors and admins only', () => {
    for (const permission of ['edit_contracts', 'edit_policies', 'edit_surfaces'] as const)
      expect(holders(permission)).toEqual(['author', 'admin']);
    expect(holders('read')).toEqual([...ROLES]);
    expect(holders('decide_approvals')).toEqual(['approver', 'admin']);
    expect(holders('manage_keys')).toEqual(['admin']);
    expect(holders('manage_members')).toEqual(['admin']);
  });

  it('knows its roles', () => {
    expect(ROLES.every(isRole)).toBe(true);
    expect(isRole('owner')).toBe(false);
  });

  it('is the table docs/members.md shows', () => {
    const doc = readFileSync(path.join(__dirname, '../../docs/members.md'), 'utf8');
    const rows = doc.split('\n').filter((line) => /^\| `[a-z_]+` \| (yes|—) \|/.test(line));
    const table = rows.map((line) => {
      const [permission, ...cells] = line
        .split('|')
        .slice(1, 1 + 1 + ROLES.length)
        .map((cell) => cell.trim());
      return [permission?.replaceAll('`', ''), ROLES.filter((_, i) => cells[i] === 'yes')];
    });
    expect(table).toEqual(PERMISSIONS.map((permission) => [permission, holders(permission)]));
  });
});
