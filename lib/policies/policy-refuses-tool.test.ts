import { describe, expect, it } from 'vitest';
import { compilePolicy, type CompiledPolicy } from './compile-policy';
import { policiesMayHoldTool, policyRefusesTool } from './policy-refuses-tool';

function policy(document: Record<string, unknown>): CompiledPolicy {
  const result = compilePolicy({ id: 'p', version: '1.0.0', ...document });
  if (!result.ok) throw new Error(result.problems.join('; '));
  return result.policy;
}

describe('policyRefusesTool', () => {
  it('refuses a tool outside the capability, above the ceiling, or under an unconditional deny rule', () => {
    expect(policyRefusesTool([policy({ capability: { tools: ['orders.*'] } })], 'github.delete_repo', 'read_only')).toMatch(
      /does not allow the tool/,
    );
    expect(policyRefusesTool([policy({ capability: { side_effect_ceiling: 'write' } })], 'github.delete_repo', 'destructive')).toMatch(
      /up to write/,
    );
    expect(
      policyRefusesTool(
        [policy({ rules: [{ id: 'no-delete', tools: ['github.delete_*'], decision: 'deny' }] })],
        'github.delete_repo',
        'write',
      ),
    ).toMatch(/rule no-delete/);
  });

  it('lists a tool that only a conditional rule, another tool, or a lower level concerns', () => {
    const policies = [
      policy({
        capability: { tools: ['github.*'], side_effect_ceiling: 'destructive' },
        rules: [
          { id: 'big', tools: ['github.delete_repo'], when: 'args.count > 10', decision: 'deny' },
          { id: 'other', tools: ['orders.*'], decision: 'deny' },
          { id: 'hold', tools: ['github.*'], decision: 'require_approval', roles: ['admin'] },
        ],
      }),
    ];
    expect(policyRefusesTool(policies, 'github.delete_repo', 'destructive')).toBeNull();
    expect(policyRefusesTool([], 'github.delete_repo', 'destructive')).toBeNull();
  });
});

describe('policiesMayHoldTool', () => {
  it('says a tool could be held when an approval rule or a require_approval/escalate rule names it, whatever the condition', () => {
    expect(policiesMayHoldTool([policy({ approval: { rules: [{ tools: ['payments.*'], roles: ['admin'] }] } })], 'payments.refund')).toBe(
      true,
    );
    expect(
      policiesMayHoldTool(
        [policy({ rules: [{ id: 'big', tools: ['payments.refund'], when: 'args.amount > 100', decision: 'escalate', roles: ['admin'] }] })],
        'payments.refund',
      ),
    ).toBe(true);
    expect(
      policiesMayHoldTool(
        [policy({ rules: [{ id: 'r', tools: ['payments.*'], decision: 'require_approval', roles: ['a'] }] })],
        'orders.get',
      ),
    ).toBe(false);
    expect(policiesMayHoldTool([policy({ rules: [{ id: 'r', tools: ['*'], decision: 'deny' }] })], 'orders.get')).toBe(false);
    expect(policiesMayHoldTool([], 'orders.get')).toBe(false);
  });

  it('says a tool could be held when a soft limit names it (past it, calls need approval), not for a hard one', () => {
    const limit = { id: 'l', tools: ['wallet.*'], per: 'user', window: '1h', max_calls: 2 };
    const soft = policy({ limits: [{ ...limit, when_exceeded: 'require_approval', roles: ['approver'] }] });
    expect(policiesMayHoldTool([soft], 'wallet.transfer')).toBe(true);
    expect(policiesMayHoldTool([soft], 'orders.get')).toBe(false);
    expect(policiesMayHoldTool([policy({ limits: [limit] })], 'wallet.transfer')).toBe(false);
  });
});
