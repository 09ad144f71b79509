import { describe, expect, it } from 'vitest';
import { approverRolesOf, storedApproverRoles } from './approval-grant';

describe('approver roles as an approval stores them', () => {
  it('keeps plain roles space-separated, as rows written before read', () => {
    expect(storedApproverRoles(['approver', 'finance_lead'])).toBe('approver finance_lead');
    expect(storedApproverRoles([])).toBe('');
    expect(approverRolesOf('approver finance_lead')).toEqual(['approver', 'finance_lead']);
    expect(approverRolesOf('')).toEqual([]);
  });

  it.each([[['finance team']], [['a\u0000b', 'approver']], [['lone\ud800']], [['[x]']], [['tab\there']]])(
    'gives back %j as written',
    (roles) => {
      const stored = storedApproverRoles(roles);
      expect(stored).not.toContain('\u0000');
      expect(approverRolesOf(stored)).toEqual(roles);
    },
  );
});
