import { describe, expect, it } from 'vitest';
import { lintDocument } from '@/lib/lint';
import { compileContract } from './compile-contract';
import { CONTRACT_TEMPLATES } from './templates';

function compiled(document: unknown) {
  const result = compileContract(document);
  if (!result.ok) throw new Error(JSON.stringify(result.problems));
  return result.contract;
}

describe('CONTRACT_TEMPLATES', () => {
  it('offers the three starters with distinct ids', () => {
    expect(CONTRACT_TEMPLATES.map((t) => [t.id, t.document.id])).toEqual([
      ['read-only-query', 'orders.lookup'],
      ['external-write-confirmation', 'email.send'],
      ['destructive-approval', 'accounts.delete'],
    ]);
  });

  it.each(CONTRACT_TEMPLATES.map((t) => [t.id, t] as const))('%s compiles', (_id, template) => {
    expect(compileContract(template.document)).toMatchObject({ ok: true });
  });

  it.each(CONTRACT_TEMPLATES.map((t) => [t.id, t] as const))('%s has no error diagnostics from the linter', (_id, template) => {
    const json = lintDocument('contract', JSON.stringify(template.document, null, 2), { format: 'json' });
    expect(json.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
  });

  it('each template shows the safety setting it is named for', () => {
    const [query, write, destructive] = CONTRACT_TEMPLATES.map((t) => compiled(t.document).document.annotations);
    expect(query).toMatchObject({
      side_effect_level: 'read_only',
      idempotent: true,
      confirmation_required: false,
      approval_required: false,
    });
    expect(write).toMatchObject({ side_effect_level: 'external', confirmation_required: true, approval_required: false });
    expect(destructive).toMatchObject({ side_effect_level: 'destructive', approval_required: true, approver_roles: ['admin'] });
  });

  it('the destructive template refuses a call whose preconditions fail, and allows one whose hold', () => {
    const contract = compiled(CONTRACT_TEMPLATES[2]!.document);
    const args = { tenant_id: 't1', account_id: 'acc_12345678', reason: 'fraud' };
    expect(contract.checkInput(args)).toEqual([]);
    const outcomes = (state: Record<string, unknown>) =>
      contract.preconditions.map((p) => [p.id, p.evaluate({ args, context: { tenant_id: 't1', state } })]);
    expect(outcomes({ open_balance_cents: 0 })).toEqual([
      ['no_open_balance', { ok: true, holds: true }],
      ['not_on_legal_hold', { ok: true, holds: true }],
    ]);
    expect(outcomes({ open_balance_cents: 1200, legal_hold: true })).toEqual([
      ['no_open_balance', { ok: true, holds: false }],
      ['not_on_legal_hold', { ok: true, holds: false }],
    ]);
  });
});
