import { beforeAll, describe, expect, it } from 'vitest';
import { db } from '@/lib/db';
import { createApiKey } from '@/lib/auth/api-keys';
import { hashCanonical } from '@/lib/contracts/canonical-json';
import { call, expectCodes } from '@/lib/testing/api-client';
import { asSession, context, other, poll, requestRefund, setUpApprovalQueue, t, approver1, viewer } from './approval-queue-setup';
import { validatePreHandler as validatePre } from '@/lib/api/handlers/validate';
import { getApprovalHandler as getApproval, listApprovalsHandler as listApprovals } from '@/lib/api/handlers/approvals';
import { savePolicyDraftHandler as savePolicy, publishPolicyVersionHandler as publishPolicy } from '@/lib/api/handlers/policies';

// A held call whose arguments a policy transform rewrites: the person approves what will run.
setUpApprovalQueue();

const CAP = { id: 'caps', version: '1.0.0', rule: 'cap' };
beforeAll(async () => {
  const { key } = await createApiKey({ tenantId: t.tenant.id, name: 'author', scopes: ['author'] });
  const document = {
    id: CAP.id,
    version: CAP.version,
    rules: [
      { id: CAP.rule, tools: ['payments.refund'], when: 'args.amount_cents > 5000', decision: 'transform', set: { amount_cents: 5000 } },
    ],
  };
  expect((await call(savePolicy, { key, body: document })).status).toBeLessThan(300);
  expect((await call(publishPolicy, { key, params: { id: CAP.id, version: CAP.version }, body: {} })).status).toBe(200);
});

const redeem = (callId: string, args: Record<string, unknown>, extra: Record<string, unknown>) =>
  call(validatePre, { key: t.agentKey, body: { tool: 'payments.refund', call_id: callId, arguments: args, context: context(), ...extra } });

describe('a held call that a policy transform rewrites', () => {
  it('is queued with the rewritten arguments, which approvers see as the policy’s change and the agent redeems', async () => {
    const { id, args, callId } = await requestRefund(9000);
    const rewritten = { ...args, amount_cents: 5000 };
    const row = await db().approval.findUniqueOrThrow({ where: { id } });
    expect(JSON.parse(row.arguments ?? 'null')).toEqual(args);
    expect(JSON.parse(row.editedArguments ?? 'null')).toEqual(rewritten);
    expect(row).toMatchObject({ argsHash: hashCanonical(rewritten), originalArgsHash: hashCanonical(args) });
    expect(JSON.parse(row.rewrittenBy ?? 'null')).toEqual([{ policy_id: CAP.id, version: CAP.version, rule: CAP.rule }]);

    const queue = await call(listApprovals, { headers: { cookie: approver1.cookie }, path: '/api/v1/approvals?status=pending&limit=100' });
    const shown = queue.body.approvals.find((a: { id: string }) => a.id === id);
    expect(shown).toMatchObject({ edited: true, rewritten_by: [{ policy_id: CAP.id, version: CAP.version, rule: CAP.rule }] });
    expect(shown.arguments.amount_cents).toBe(5000);
    expect(shown.arguments.card).toEqual({ last4: '[REDACTED]', holder_name: '[REDACTED]' });
    expect(shown.arguments_diff.changes).toEqual([{ kind: 'changed', path: '$.amount_cents', before: 9000, after: 5000 }]);

    expect((await asSession(approver1, id, { decision: 'approve' })).status).toBe(200);
    const polled = await poll(id);
    expect(polled.body).toMatchObject({ status: 'approved', edited: true, arguments: rewritten });
    const token = polled.body.approval_token as string;
    // The agent's own arguments are not what was approved.
    const original = await redeem(callId, args, { approval_token: token });
    expect(original.body.decision).toBe('deny');
    expectCodes(original.body.errors, ['AXAG_APPROVAL_INVALID']);
    // Sent as approved, the call is under the cap: the transform no longer applies, and it runs as sent.
    const ran = await redeem(callId, rewritten, { approval_token: token });
    expect(ran.body).toMatchObject({ decision: 'allow', valid: true });
    expect((await db().approval.findUniqueOrThrow({ where: { id } })).tokenUsedAt).not.toBeNull();
  });

  it('refuses to redeem when the transform would change the arguments a person approved', async () => {
    const { id, args, callId } = await requestRefund(9001);
    // The approver edits the call to 7000, over the policy's cap: the rewrite is no longer theirs.
    const edited = { ...args, amount_cents: 7000 };
    const approved = await asSession(approver1, id, { decision: 'approve', arguments: edited });
    expect(approved.status).toBe(200);
    expect((await db().approval.findUniqueOrThrow({ where: { id } })).rewrittenBy).toBeNull();
    const token = (await poll(id)).body.approval_token as string;
    const refused = await redeem(callId, edited, { approval_token: token });
    expect(refused.body.decision).toBe('deny');
    expectCodes(refused.body.errors, ['AXAG_POLICY_TRANSFORM_INVALID']);
    expect(refused.body.errors[0].details).toMatchObject({ reason: 'rewrites_approved_arguments', policy_id: CAP.id });
    expect((await db().approval.findUniqueOrThrow({ where: { id } })).tokenUsedAt).toBeNull();
  });
});

describe('an approved call asked for again without its token', () => {
  it('gets the approved approval back instead of a twin that could be denied beside it', async () => {
    const { id, args, callId } = await requestRefund(1234);
    expect((await asSession(approver1, id, { decision: 'approve' })).status).toBe(200);
    const again = await redeem(callId, args, {});
    expect(again.body.decision).toBe('require_approval');
    expect(again.body.approval).toMatchObject({ id, status: 'approved' });
    expect(await db().approval.count({ where: { tenantId: t.tenant.id, argsHash: hashCanonical(args) } })).toBe(1);
    // It redeems once; after that, the same call is a new request.
    const token = (await poll(id)).body.approval_token as string;
    expect((await redeem(callId, args, { approval_token: token })).body.decision).toBe('allow');
    const after = await redeem(callId, args, {});
    expect(after.body.decision).toBe('require_approval');
    expect(after.body.approval.id).not.toBe(id);
  });
});

describe('GET /approvals/{id} for people', () => {
  it('redacts sensitive values in edited arguments and leaves out the token, which only an agent key can use', async () => {
    const { id, args } = await requestRefund(1500);
    const edited = { ...args, amount_cents: 1400 };
    expect((await asSession(approver1, id, { decision: 'approve', arguments: edited })).status).toBe(200);
    for (const person of [viewer, approver1]) {
      const seen = await call(getApproval, { headers: { cookie: person.cookie }, params: { id }, path: `/api/v1/approvals/${id}` });
      expect(seen.status).toBe(200);
      expect(seen.body.arguments).toEqual({ ...edited, card: { last4: '[REDACTED]', holder_name: '[REDACTED]' } });
      expect(seen.body.approval_token).toBeUndefined();
      expect(JSON.stringify(seen.body)).not.toContain('Ada Lovelace');
    }
    const agent = await poll(id);
    expect(agent.body.arguments).toEqual(edited);
    expect(typeof agent.body.approval_token).toBe('string');
  });
});

describe('the queue cursor', () => {
  it('names only this tenant’s approvals: another tenant’s id pages like an unknown one', async () => {
    await requestRefund(1600);
    const foreign = await requestRefund(1601, { key: other.agentKey });
    const list = (cursor: string) =>
      call(listApprovals, { headers: { cookie: approver1.cookie }, path: `/api/v1/approvals?status=all&limit=100&cursor=${cursor}` });
    const own = (await call(listApprovals, { headers: { cookie: approver1.cookie }, path: '/api/v1/approvals?status=all&limit=100' })).body
      .approvals;
    expect(own.length).toBeGreaterThan(1);
    expect((await list(own[0].id)).body.approvals.length).toBe(own.length - 1);
    expect((await list(foreign.id)).body).toMatchObject({ approvals: [], next_cursor: null });
    expect((await list('zzz')).body).toMatchObject({ approvals: [], next_cursor: null });
  });
});
