import { beforeEach, describe, expect, it } from 'vitest';
import { db } from '@/lib/db';
import { hashCanonical } from '@/lib/contracts/canonical-json';
import { createApiKey } from '@/lib/auth/api-keys';
import { EXAMPLE_CONTRACTS, lookupOrderContract } from '@/lib/contracts/examples';
import { verifyEvidenceChain } from '@/lib/evidence/verify-evidence-chain';
import type { PolicyEvidence } from '@/lib/policies/policy-evidence';
import { call, expectCodes } from '@/lib/testing/api-client';
import { createTestTenant, publishContract } from '@/lib/testing/fixtures';
import { validatePreHandler as validatePre } from '@/lib/api/handlers/validate';
import { savePolicyDraftHandler as savePolicy, publishPolicyVersionHandler as publishPolicy } from '@/lib/api/handlers/policies';
import { publishSurfaceVersionHandler as publishSurface } from '@/lib/api/handlers/surfaces';
import {
  saveContractDraftHandler as saveContract,
  publishContractVersionHandler as publishContractRoute,
} from '@/lib/api/handlers/contracts';
import { fromStoredEvidence } from '@/lib/evidence/stored-hashes';

let t: Awaited<ReturnType<typeof createTestTenant>>;
let authorKey: string;

beforeEach(async () => {
  t = await createTestTenant({ storeRawArguments: true });
  authorKey = (await createApiKey({ tenantId: t.tenant.id, name: 'ci', scopes: ['author'] })).key;
  for (const contract of EXAMPLE_CONTRACTS) await publishContract(t.tenant.id, contract);
});

async function publish(document: Record<string, unknown>, mode: 'enforce' | 'shadow' = 'enforce', key = authorKey) {
  const saved = await call(savePolicy, { key, body: document });
  expect(saved.status, JSON.stringify(saved.body)).toBeLessThan(300);
  const published = await call(publishPolicy, {
    key,
    params: { id: String(document.id), version: String(document.version) },
    body: { mode },
  });
  expect(published.status, JSON.stringify(published.body)).toBe(200);
  return published.body;
}

const lookupArgs = { tenant_id: 'acme', order_id: 'ord_abc123' };
const lookup = (callId: string, args: Record<string, unknown> = lookupArgs, key = t.agentKey) =>
  call(validatePre, {
    key,
    body: { tool: 'orders.lookup', call_id: callId, arguments: args, context: { tenant_id: 'acme', user_id: 'u1' } },
  });

async function evidenceFor(evidenceId: string) {
  const row = fromStoredEvidence(await db().evidence.findUniqueOrThrow({ where: { id: evidenceId } }));
  return { row, policy: row.policy ? (JSON.parse(row.policy) as PolicyEvidence) : null };
}

describe('policy decisions on validate/pre', () => {
  it('records no policy part when the tenant has no policies', async () => {
    const answer = await lookup('no-policy');
    expect(answer.body.decision).toBe('allow');
    expect(answer.body.policy).toBeUndefined();
    const { row } = await evidenceFor(answer.body.evidence_id);
    expect(row).toMatchObject({ policyId: null, policy: null, shadowDiffers: false });
  });

  it('allows through an allow rule and names it', async () => {
    await publish({
      id: 'support',
      version: '1.0.0',
      rules: [{ id: 'reads-ok', tools: ['orders.*'], decision: 'allow', reason: 'reads are fine' }],
    });
    const answer = await lookup('allowed');
    expect(answer.body).toMatchObject({
      decision: 'allow',
      valid: true,
      policy: { decision: 'allow', policy_id: 'support', version: '1.0.0', rule: 'reads-ok', reason: 'reads are fine' },
    });
    const { row, policy } = await evidenceFor(answer.body.evidence_id);
    expect(row).toMatchObject({ policyId: 'support', policyVersion: '1.0.0', policyRule: 'reads-ok', decision: 'allow' });
    expect(policy?.evaluated).toEqual([
      { policy_id: 'support', version: '1.0.0', rule: 'reads-ok', decision: 'allow', reason: 'reads are fine' },
    ]);
  });

  it('denies with the policy, rule and reason, and a deny in one policy beats an allow in another', async () => {
    await publish({ id: 'a-reads', version: '1.0.0', rules: [{ id: 'reads-ok', tools: ['orders.*'], decision: 'allow' }] });
    await publish({
      id: 'b-payments-view',
      version: '1.0.0',
      rules: [
        {
          id: 'no-payment-details',
          tools: ['orders.lookup'],
          when: "has(args.include) && 'payments' in args.include",
          decision: 'deny',
          reason: 'payment details are not for agents',
        },
      ],
    });
    expect((await lookup('plain')).body.decision).toBe('allow');
    const denied = await lookup('with-payments', { ...lookupArgs, include: ['items', 'payments'] });
    expect(denied.body.decision).toBe('deny');
    expectCodes(denied.body.errors, ['AXAG_POLICY_DENIED']);
    expect(denied.body.errors[0].details).toMatchObject({
      policy_id: 'b-payments-view',
      rule: 'no-payment-details',
      reason: 'payment details are not for agents',
    });
    expect(denied.body.policy).toMatchObject({ decision: 'deny', policy_id: 'b-payments-view', rule: 'no-payment-details' });
    expect(denied.body.llm_message).toMatch(/payment details are not for agents/);
    const { row } = await evidenceFor(denied.body.evidence_id);
    expect(row).toMatchObject({ decision: 'deny', policyId: 'b-payments-view', policyRule: 'no-payment-details' });
    const violations = await db().violation.findMany({ where: { evidenceId: row.id } });
    expect(violations.map((v) => v.code)).toEqual(['AXAG_POLICY_DENIED']);
  });

  it('refuses tools outside the capability, above the ceiling, and argument values outside the constraints', async () => {
    await publish({
      id: 'support',
      version: '1.0.0',
      capability: { tools: ['orders.*', 'cart.*'], side_effect_ceiling: 'read_only' },
      arg_constraints: [{ tool: 'orders.lookup', key: 'tenant_id', allowed_values: ['acme'] }],
    });
    const refund = await call(validatePre, {
      key: t.agentKey,
      body: {
        tool: 'payments.refund',
        call_id: 'r1',
        arguments: { tenant_id: 'acme', payment_id: 'pay_abcdefgh12', amount_cents: 5, reason: 'duplicate' },
        context: { tenant_id: 'acme', roles: ['support'], state: { payment_status: 'captured' } },
      },
    });
    expect(refund.body.decision).toBe('deny');
    expect(refund.body.errors.map((e: { code: string }) => e.code)).toContain('AXAG_TOOL_NOT_ALLOWED');

    const checkout = await call(validatePre, {
      key: t.agentKey,
      body: { tool: 'cart.begin_checkout', call_id: 'c1', arguments: {}, context: {} },
    });
    expect(checkout.body.errors.map((e: { code: string }) => e.code)).toContain('AXAG_SIDE_EFFECT_CEILING');

    const otherTenant = await call(validatePre, {
      key: t.agentKey,
      body: {
        tool: 'orders.lookup',
        call_id: 'l1',
        arguments: { tenant_id: 'globex', order_id: 'ord_abc123' },
        context: { tenant_id: 'globex' },
      },
    });
    expect(otherTenant.body.decision).toBe('deny');
    const codes = otherTenant.body.errors.map((e: { code: string; path: string }) => `${e.code} ${e.path}`);
    expect(codes).toContain('AXAG_ARGUMENT_NOT_ALLOWED $.tenant_id');
  });

  it('transforms: returns and records the rewritten arguments; a transform the contract refuses denies', async () => {
    await publish({
      id: 'support',
      version: '1.0.0',
      rules: [
        { id: 'items-only', tools: ['orders.lookup'], decision: 'transform', set: { include: ['items'] }, reason: 'agents see items only' },
      ],
    });
    const answer = await lookup('transformed', { ...lookupArgs, include: ['payments'] });
    expect(answer.body).toMatchObject({
      decision: 'transform',
      valid: true,
      arguments: { ...lookupArgs, include: ['items'] },
      policy: { decision: 'transform', rule: 'items-only' },
    });
    const { row, policy } = await evidenceFor(answer.body.evidence_id);
    expect(row.decision).toBe('transform');
    // The hashed policy JSON has only hashes; the rewritten arguments are a raw payload (retention on).
    expect(policy?.transformed).toEqual({
      args_hash: hashCanonical({ ...lookupArgs, include: ['items'] }),
      original_args_hash: row.argsHash,
    });
    expect(JSON.parse(row.payload ?? '{}').transformed_arguments).toEqual({ ...lookupArgs, include: ['items'] });
    expect(policy?.transformed?.args_hash).not.toBe(policy?.transformed?.original_args_hash);
    expect(policy?.transformed?.original_args_hash).toBe(row.argsHash);

    await publish({
      id: 'support',
      version: '1.1.0',
      rules: [{ id: 'break-it', tools: ['orders.lookup'], decision: 'transform', set: { order_id: 'not-an-order' } }],
    });
    const broken = await lookup('broken');
    expect(broken.body.decision).toBe('deny');
    expectCodes(broken.body.errors, ['AXAG_POLICY_TRANSFORM_INVALID']);
    expect(broken.body.arguments).toBeUndefined();

    // Not the schema alone: the rewritten arguments are held to the contract's scope (and
    // preconditions) as the agent's are, so a transform cannot move a call to another tenant.
    await publish({
      id: 'support',
      version: '1.2.0',
      rules: [{ id: 'elsewhere', tools: ['orders.lookup'], decision: 'transform', set: { tenant_id: 'globex' } }],
    });
    const moved = await lookup('moved');
    expect(moved.body.decision).toBe('deny');
    expectCodes(moved.body.errors, ['AXAG_POLICY_TRANSFORM_INVALID']);
    expect(moved.body.errors[0].details.issues).toEqual([expect.objectContaining({ code: 'AXAG_TENANT_BOUNDARY', path: '$.tenant_id' })]);
    expect(moved.body.arguments).toBeUndefined();
  });

  it('requires approval from a policy, with its roles, approver count and expiry on the pending approval', async () => {
    await publish({
      id: 'support',
      version: '1.0.0',
      approval: { rules: [{ tools: ['orders.lookup'], roles: ['approver'], approvers_required: 2, expires_in_seconds: 120 }] },
    });
    const answer = await lookup('needs-approval');
    expect(answer.body.decision).toBe('require_approval');
    expectCodes(answer.body.errors, ['AXAG_APPROVAL_MISSING']);
    expect(answer.body.errors[0].details).toMatchObject({ approver_roles: ['approver'], approvers_required: 2 });
    const approval = await db().approval.findUniqueOrThrow({ where: { id: answer.body.approval.id } });
    expect(approval).toMatchObject({
      approverRoles: 'approver',
      approversRequired: 2,
      sideEffectLevel: 'read_only',
      policyId: 'support',
      policyRule: 'approval',
      escalationLevel: 0,
    });
    expect(approval.expiresAt.getTime() - approval.createdAt.getTime()).toBeGreaterThan(110_000);
    expect(approval.expiresAt.getTime() - approval.createdAt.getTime()).toBeLessThanOrEqual(121_000);
    expect(JSON.parse(approval.arguments ?? 'null')).toEqual(lookupArgs);
  });

  it('escalates to the named role with AXAG_ESCALATION_REQUIRED', async () => {
    await publish({
      id: 'support',
      version: '1.0.0',
      rules: [
        {
          id: 'bulk',
          tools: ['orders.*'],
          when: 'has(args.include) && size(args.include) > 2',
          decision: 'escalate',
          roles: ['admin'],
          reason: 'full order dumps need an admin',
        },
      ],
    });
    expect((await lookup('small')).body.decision).toBe('allow');
    const answer = await lookup('bulk', { ...lookupArgs, include: ['items', 'payments', 'shipments'] });
    expect(answer.body.decision).toBe('escalate');
    expectCodes(answer.body.errors, ['AXAG_ESCALATION_REQUIRED']);
    expect(answer.body.llm_message).toMatch(/escalated/i);
    const approval = await db().approval.findUniqueOrThrow({ where: { id: answer.body.approval.id } });
    expect(approval).toMatchObject({
      approverRoles: 'admin',
      escalationLevel: 1,
      policyRule: 'bulk',
      reason: 'full order dumps need an admin',
    });
  });

  it('evaluates a shadow policy beside the enforced one, records where they differ, and decides nothing until promoted', async () => {
    await publish({ id: 'support', version: '1.0.0', rules: [{ id: 'reads-ok', tools: ['orders.*'], decision: 'allow' }] });
    await publish(
      { id: 'support', version: '2.0.0', rules: [{ id: 'no-reads', tools: ['orders.lookup'], decision: 'deny', reason: 'tightened' }] },
      'shadow',
    );
    const answer = await lookup('shadowed');
    expect(answer.body.decision).toBe('allow');
    const { row, policy } = await evidenceFor(answer.body.evidence_id);
    expect(row.shadowDiffers).toBe(true);
    expect(policy?.shadow).toEqual([
      { kind: 'policy', id: 'support', version: '2.0.0', decision: 'deny', rule: 'no-reads', codes: ['AXAG_POLICY_DENIED'], differs: true },
    ]);

    // Promoting the shadow version makes it decide.
    const promoted = await call(publishPolicy, { key: authorKey, params: { id: 'support', version: '2.0.0' }, body: { mode: 'enforce' } });
    expect(promoted.status).toBe(200);
    const after = await lookup('after-promotion');
    expect(after.body.decision).toBe('deny');
    const { row: afterRow } = await evidenceFor(after.body.evidence_id);
    expect(afterRow.shadowDiffers).toBe(false);
  });

  it('evaluates a shadow contract version beside the served one', async () => {
    const stricter = {
      ...lookupOrderContract,
      version: '1.4.0',
      input: {
        ...lookupOrderContract.input,
        properties: { ...(lookupOrderContract.input.properties as object), order_id: { type: 'string', pattern: '^ord_[0-9]{6}$' } },
      },
    };
    expect((await call(saveContract, { key: authorKey, body: stricter })).status).toBeLessThan(300);
    const shadowed = await call(publishContractRoute, {
      key: authorKey,
      params: { id: 'orders.lookup', version: '1.4.0' },
      body: { mode: 'shadow' },
    });
    expect(shadowed.status).toBe(200);
    expect(shadowed.body.status).toBe('shadow');
    const answer = await lookup('contract-shadow');
    expect(answer.body).toMatchObject({ decision: 'allow', version: '1.3.0' });
    const { row, policy } = await evidenceFor(answer.body.evidence_id);
    expect(row.shadowDiffers).toBe(true);
    expect(policy?.shadow).toEqual([
      {
        kind: 'contract',
        id: 'orders.lookup',
        version: '1.4.0',
        decision: 'deny',
        rule: null,
        codes: ['AXAG_PATTERN_MISMATCH'],
        differs: true,
      },
    ]);
    // A matching call does not differ.
    const same = await lookup('contract-shadow-same', { tenant_id: 'acme', order_id: 'ord_123456' });
    expect((await evidenceFor(same.body.evidence_id)).row.shadowDiffers).toBe(false);
  });

  it('refuses shadow mode for surfaces, and a second shadow retires the first', async () => {
    const surface = await call(publishSurface, { key: authorKey, params: { id: 'x', version: '1.0.0' }, body: { mode: 'shadow' } });
    expect(surface.status).toBe(400);
    await publish({ id: 'support', version: '1.0.0', rules: [] });
    await publish({ id: 'support', version: '1.1.0', rules: [{ id: 'deny-all', tools: ['*'], decision: 'deny' }] }, 'shadow');
    await publish({ id: 'support', version: '1.2.0', rules: [{ id: 'allow-all', tools: ['*'], decision: 'allow' }] }, 'shadow');
    const versions = await db().studioDocumentVersion.findMany({
      where: { tenantId: t.tenant.id },
      orderBy: { version: 'asc' },
      select: { version: true, status: true },
    });
    expect(versions).toEqual([
      { version: '1.0.0', status: 'published' },
      { version: '1.1.0', status: 'retired' },
      { version: '1.2.0', status: 'shadow' },
    ]);
  });

  it('refuses to publish a policy whose own test case fails (409 lint_errors), and publishes it once the case holds', async () => {
    const document = (decision: string) => ({
      id: 'tested',
      version: '1.0.0',
      rules: [
        {
          id: 'no-bulk',
          tools: ['orders.lookup'],
          when: 'has(args.include) && size(args.include) > 1',
          decision: 'deny',
          reason: 'one section at a time',
        },
      ],
      tests: [
        {
          name: 'bulk reads are refused',
          tool: 'orders.lookup',
          arguments: { include: ['items', 'payments'] },
          expect: { decision, rule: 'no-bulk', errors: ['AXAG_POLICY_DENIED'] },
        },
      ],
    });
    expect((await call(savePolicy, { key: authorKey, body: document('allow') })).status).toBeLessThan(300);
    const refused = await call(publishPolicy, { key: authorKey, params: { id: 'tested', version: '1.0.0' }, body: {} });
    expect(refused.status).toBe(409);
    expect(refused.body.error.code).toBe('lint_errors');
    expect(refused.body.error.details.diagnostics.map((d: { code: string }) => d.code)).toEqual(['POLICY_TEST_FAILED']);
    expect((await call(savePolicy, { key: authorKey, body: document('deny') })).status).toBeLessThan(300);
    expect((await call(publishPolicy, { key: authorKey, params: { id: 'tested', version: '1.0.0' }, body: {} })).status).toBe(200);
  });

  it('runs test cases with a history on publish: refuses a failing one, warns about paths the contracts lack, and the limit then holds', async () => {
    const document = (decision: string) => ({
      id: 'remembers',
      version: '1.0.0',
      limits: [{ id: 'lookups-per-user', tools: ['orders.lookup'], per: 'user', window: '1h', max_calls: 2 }],
      rules: [
        {
          id: 'repeat-refunds',
          tools: ['payments.refund'],
          // `amount` is not in payments.refund's input (it has amount_cents): a warning, not a refusal.
          when: "history.sum('payments.refund', 'amount', 'user', '1d') > 0.0",
          decision: 'deny',
        },
      ],
      tests: [
        {
          name: 'a third lookup in an hour is refused',
          tool: 'orders.lookup',
          context: { user_id: 'u1' },
          history: [
            { tool: 'orders.lookup', seconds_ago: 600 },
            { tool: 'orders.lookup', seconds_ago: 1200 },
          ],
          expect: { decision, rule: 'lookups-per-user', errors: ['AXAG_RATE_LIMITED'] },
        },
        {
          name: 'lookups of another user or over an hour ago do not count',
          tool: 'orders.lookup',
          context: { user_id: 'u1' },
          history: [
            { tool: 'orders.lookup', context: { user_id: 'u2' }, seconds_ago: 60 },
            { tool: 'orders.lookup', seconds_ago: 3601 },
          ],
          expect: { decision: 'allow' },
        },
      ],
    });
    expect((await call(savePolicy, { key: authorKey, body: document('allow') })).status).toBeLessThan(300);
    const refused = await call(publishPolicy, { key: authorKey, params: { id: 'remembers', version: '1.0.0' }, body: {} });
    expect(refused.status).toBe(409);
    expect(refused.body.error.code).toBe('lint_errors');
    const diagnostics = refused.body.error.details.diagnostics as { code: string; severity: string; message: string; path: string }[];
    expect(diagnostics.map((d) => [d.code, d.severity, d.path])).toEqual([
      ['POLICY_HISTORY_UNKNOWN_PATH', 'warning', '$.rules[0].when'],
      ['POLICY_TEST_FAILED', 'error', '$.tests[0].expect'],
    ]);
    expect(diagnostics[1]?.message).toBe('Test "a third lookup in an hour is refused" fails: expected decision allow, got deny.');
    expect((await lookup('before-publish-1')).body.decision).toBe('allow');

    expect((await call(savePolicy, { key: authorKey, body: document('deny') })).status).toBeLessThan(300);
    expect((await call(publishPolicy, { key: authorKey, params: { id: 'remembers', version: '1.0.0' }, body: {} })).status).toBe(200);
    // History starts at publication: the lookup made before it is not counted.
    expect((await lookup('limited-1')).body.decision).toBe('allow');
    expect((await lookup('limited-2')).body.decision).toBe('allow');
    const third = await lookup('limited-3');
    expect(third.body.decision).toBe('deny');
    expectCodes(third.body.errors, ['AXAG_RATE_LIMITED']);
  });

  it("keeps tenants apart: one tenant's policy never decides another's calls", async () => {
    const other = await createTestTenant();
    for (const contract of EXAMPLE_CONTRACTS) await publishContract(other.tenant.id, contract);
    await publish({ id: 'lockdown', version: '1.0.0', rules: [{ id: 'deny-all', tools: ['*'], decision: 'deny' }] });
    expect((await lookup('mine')).body.decision).toBe('deny');
    expect((await lookup('theirs', lookupArgs, other.agentKey)).body.decision).toBe('allow');
  });

  it('keeps the evidence chain verifiable with policy fields in it', async () => {
    await publish({
      id: 'support',
      version: '1.0.0',
      rules: [{ id: 'items-only', tools: ['orders.lookup'], decision: 'transform', set: { include: ['items'] } }],
    });
    await publish({ id: 'support', version: '1.1.0', rules: [] }, 'shadow');
    await lookup('chain-1');
    await lookup('chain-2', { ...lookupArgs, include: ['payments'] });
    const verification = await verifyEvidenceChain({ tenantId: t.tenant.id });
    expect(verification).toMatchObject({ valid: true, firstBroken: null });
    // Tampering with a policy field breaks the chain at that record.
    const tampered = await db().evidence.findFirstOrThrow({ where: { tenant: { tenantId: t.tenant.id }, policyRule: 'items-only' } });
    await db().evidence.update({ where: { id: tampered.id }, data: { policyRule: 'something-else' } });
    expect((await verifyEvidenceChain({ tenantId: t.tenant.id })).firstBroken).toMatchObject({
      seq: tampered.seq,
      reason: 'hash_mismatch',
    });
  });
});
