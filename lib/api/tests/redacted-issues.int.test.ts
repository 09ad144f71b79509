// Issues quote the value they refuse ("…, got \"4111 1111 1111 1111\""), and issues are evidence:
// chained, listed as violations and exported. A value at a sensitive path (the contract's
// `sensitive`, the tenant's sensitive_paths) is never kept or answered that way.
import { beforeAll, describe, expect, it } from 'vitest';
import { db } from '@/lib/db';
import { refundPaymentContract } from '@/lib/contracts/examples';
import { updateTenantSettings } from '@/lib/tenants/tenant-settings';
import { call } from '@/lib/testing/api-client';
import { createTestTenant, publishContract } from '@/lib/testing/fixtures';
import { tenantEvidence } from '@/lib/evidence/tenant-key';
import { validatePreHandler as validatePre } from '@/lib/api/handlers/validate';
import { listViolationsHandler as listViolations } from '@/lib/api/handlers/violations';
import { listApprovalsHandler as listApprovals } from '@/lib/api/handlers/approvals';
import { getTraceHandler as getTrace } from '@/lib/api/handlers/traces';

let t: Awaited<ReturnType<typeof createTestTenant>>;
beforeAll(async () => {
  t = await createTestTenant({ storeRawArguments: true });
  await publishContract(t.tenant.id, refundPaymentContract);
  // The tenant's own path, on top of the contract's card.last4 and card.holder_name.
  await updateTenantSettings({
    tenantId: t.tenant.id,
    patch: { sensitive_paths: ['payment_id', 'state.secret_pin'] },
    actor: { kind: 'system' },
  });
});

const refund = (callId: string, args: Record<string, unknown>) =>
  call(validatePre, {
    key: t.agentKey,
    body: {
      tool: 'payments.refund',
      call_id: callId,
      arguments: { tenant_id: 'acme', payment_id: 'pay_abcdefgh12', amount_cents: 100, reason: 'duplicate', ...args },
      context: { tenant_id: 'acme', user_id: 'u1', roles: ['support'], state: { payment_status: 'captured' } },
    },
  });

describe('issues about sensitive arguments', () => {
  it('say what was expected and not the value: in the answer, the evidence and the violations', async () => {
    const card = await refund('card', { card: { holder_name: 'Ada', last4: '4111 1111 1111 1111' } });
    const payment = await refund('payment', { payment_id: 'SECRET-PAYMENT-REF' });
    const plain = await refund('plain', { amount_cents: 'lots' });
    for (const answer of [card, payment]) {
      expect(answer.body.decision).toBe('deny');
      expect(answer.body.errors[0].code).toBe('AXAG_PATTERN_MISMATCH');
      expect(answer.body.errors[0].message).toMatch(/must match the pattern .*, got \[REDACTED\]$/);
    }
    // Values at paths nobody marked are still quoted: they help the model correct the call.
    expect(plain.body.errors[0].message).toMatch(/got "lots"$/);

    const records = await db().evidence.findMany({ where: { ...(await tenantEvidence(t.tenant.id)), kind: 'pre' } });
    const stored = JSON.stringify(records.map((r) => [r.errors, r.arguments, r.payload]));
    expect(stored).not.toContain('4111');
    expect(stored).not.toContain('SECRET-PAYMENT-REF');
    expect(stored).toContain('lots');
    const violations = await call(listViolations, { key: t.adminKey, path: '/api/v1/violations?format=csv' });
    expect(violations.status).toBe(200);
    expect(String(violations.body)).not.toContain('4111');
    expect(String(violations.body)).not.toContain('SECRET-PAYMENT-REF');
  });
});

describe('the context of a held call', () => {
  it('is redacted at the tenant’s sensitive paths in the approval queue and the trace, as in the evidence record', async () => {
    const held = await call(validatePre, {
      key: t.agentKey,
      body: {
        tool: 'payments.refund',
        call_id: 'held-pin',
        arguments: { tenant_id: 'acme', payment_id: 'pay_abcdefgh13', amount_cents: 900, reason: 'duplicate' },
        context: { tenant_id: 'acme', user_id: 'u6', roles: ['support'], state: { payment_status: 'captured', secret_pin: 'PIN-987654' } },
      },
    });
    expect(held.body.decision).toBe('require_approval');
    const queue = await call(listApprovals, { key: t.adminKey, path: '/api/v1/approvals?status=pending&limit=100' });
    const shown = queue.body.approvals.find((a: { id: string }) => a.id === held.body.approval.id);
    expect(shown.context.state).toEqual({ payment_status: 'captured', secret_pin: '[REDACTED]' });
    const trace = await call(getTrace, { key: t.adminKey, params: { traceId: held.body.trace_id } });
    expect(trace.status).toBe(200);
    expect(JSON.stringify(trace.body)).not.toContain('PIN-987654');
    expect(trace.body.approvals[0].context.state.secret_pin).toBe('[REDACTED]');
  });
});
