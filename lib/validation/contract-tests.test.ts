import { describe, expect, it } from 'vitest';
import { compileContract, type CompiledContract } from '../contracts/compile-contract';
import { lookupOrderContract } from '../contracts/examples';
import { runContractTests, type ContractTest } from './contract-tests';

function compiled(patch: Record<string, unknown> = {}): CompiledContract {
  const result = compileContract({ ...lookupOrderContract, ...patch });
  if (!result.ok) throw new Error(JSON.stringify(result.problems));
  return result.contract;
}

const args = { tenant_id: 'acme', order_id: 'ord_abc123' };

describe('runContractTests', () => {
  it('passes cases whose decision and exact error codes match what validate/pre would answer', () => {
    const tests: ContractTest[] = [
      { name: 'valid lookup', arguments: args, context: { tenant_id: 'acme' }, expect: { decision: 'allow', errors: [] } },
      {
        name: 'missing order id',
        arguments: { tenant_id: 'acme' },
        context: { tenant_id: 'acme' },
        expect: { decision: 'deny', errors: ['AXAG_MISSING_PARAM'] },
      },
      { name: 'other tenant', arguments: { ...args, tenant_id: 'evil' }, context: { tenant_id: 'acme' }, expect: { decision: 'deny' } },
    ];
    expect(runContractTests(compiled(), tests).map((r) => [r.name, r.passed, r.decision, r.errors])).toEqual([
      ['valid lookup', true, 'allow', []],
      ['missing order id', true, 'deny', ['AXAG_MISSING_PARAM']],
      ['other tenant', true, 'deny', ['AXAG_TENANT_BOUNDARY']],
    ]);
  });

  it('fails a case whose decision or error codes differ, saying how', () => {
    const [wrongDecision, wrongCodes] = runContractTests(compiled(), [
      { name: 'expects allow', arguments: { tenant_id: 'acme' }, context: { tenant_id: 'acme' }, expect: { decision: 'allow' } },
      {
        name: 'expects another code',
        arguments: { tenant_id: 'acme' },
        context: { tenant_id: 'acme' },
        expect: { decision: 'deny', errors: ['AXAG_INVALID_TYPE'] },
      },
    ]);
    expect(wrongDecision).toMatchObject({ passed: false, failure: 'expected decision allow, got deny' });
    expect(wrongCodes).toMatchObject({ passed: false, failure: 'expected errors [AXAG_INVALID_TYPE], got [AXAG_MISSING_PARAM]' });
  });

  it('simulates approval and confirmation tokens', () => {
    const risky = compiled({
      annotations: { ...lookupOrderContract.annotations, approval_required: true, approver_roles: ['ops'], confirmation_required: true },
    });
    const results = runContractTests(risky, [
      {
        name: 'no tokens',
        arguments: args,
        context: { tenant_id: 'acme' },
        expect: { decision: 'deny', errors: ['AXAG_APPROVAL_MISSING', 'AXAG_CONFIRMATION_MISSING'] },
      },
      {
        name: 'confirmed only',
        arguments: args,
        context: { tenant_id: 'acme' },
        confirmed: true,
        expect: { decision: 'require_approval', errors: ['AXAG_APPROVAL_MISSING'] },
      },
      { name: 'both', arguments: args, context: { tenant_id: 'acme' }, confirmed: true, approved: true, expect: { decision: 'allow' } },
    ]);
    expect(results.map((r) => r.passed)).toEqual([true, true, true]);
  });
});
