import { describe, expect, it } from 'vitest';
import { compileContract, type CompiledContract } from '../contracts/compile-contract';
import { refundPaymentContract } from '../contracts/examples';
import { hashCanonical } from '../contracts/canonical-json';
import { prepareEditedArguments } from './edit-approval-arguments';

const compiled = compileContract(refundPaymentContract);
if (!compiled.ok) throw new Error('example contract does not compile');
const contract: CompiledContract = compiled.contract;
const original = {
  tenant_id: 'acme',
  payment_id: 'pay_abcdefgh12',
  amount_cents: 900,
  reason: 'duplicate',
  card: { last4: '4242', holder_name: 'Ada Lovelace' },
};
const edit = (edited: Record<string, unknown>, from: Record<string, unknown> | null = original) =>
  prepareEditedArguments({ contract, original: from, edited, userId: 'u1' });

describe('prepareEditedArguments', () => {
  it('keeps the original value where a sensitive field still holds the redaction marker', () => {
    const outcome = edit({ ...original, amount_cents: 450, card: { last4: '[REDACTED]', holder_name: '[REDACTED]' } });
    expect(outcome).toEqual({
      ok: true,
      arguments: { ...original, amount_cents: 450 },
      argsHash: hashCanonical({ ...original, amount_cents: 450 }),
    });
  });

  it('takes a new value an approver typed into a sensitive field, and a removed one stays removed', () => {
    const typed = edit({ ...original, card: { last4: '1881', holder_name: '[REDACTED]' } });
    expect(typed.ok && typed.arguments.card).toEqual({ last4: '1881', holder_name: 'Ada Lovelace' });
    const removed = edit({ ...original, card: { last4: '[REDACTED]' } });
    expect(removed.ok && removed.arguments.card).toEqual({ last4: '4242' });
  });

  it('refuses the marker where the original had no value, and anything the contract refuses', () => {
    const noCard = { tenant_id: 'acme', payment_id: 'pay_abcdefgh12', amount_cents: 900, reason: 'duplicate' };
    const marker = edit({ ...noCard, card: { holder_name: '[REDACTED]' } }, noCard);
    expect(marker.ok).toBe(false);
    const bad = edit({ ...original, reason: 'because', extra: true });
    expect(bad.ok ? [] : bad.issues.map((i) => i.code).sort()).toEqual(['AXAG_INVALID_ENUM', 'AXAG_UNKNOWN_PARAM']);
    const crossTenant = edit({ ...original, tenant_id: 'globex' });
    expect(crossTenant.ok ? [] : crossTenant.issues.map((i) => i.code)).toEqual(['AXAG_TENANT_BOUNDARY']);
  });

  it('does not hold against an edit what only the missing call context fails (context.state preconditions)', () => {
    // payment_captured reads context.state, which the approval does not keep: it fails for the
    // original arguments too, so it is left to the agent's retry through validate/pre.
    expect(edit({ ...original, amount_cents: 1 }).ok).toBe(true);
  });
});
