import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { RunState, Runner, setTracingDisabled } from '@openai/agents';
import { db } from '@/lib/db';
import { settleToolgateApprovals, toolgateApprovals } from '@toolgate/sdk/openai-agents';
import { callTool, executes, say, ScriptedModel, setUpTenant, type Turn } from './testing/openai-agents-harness.ts';

/**
 * Calls Toolgate holds for a person, in a real agent loop: the run pauses as the framework's
 * interruption, the person decides in Toolgate, and the resumed run executes exactly what
 * Toolgate approved. The framework's own approval is never enough on its own.
 */

setTracingDisabled(true);
const runner = new Runner({ tracingDisabled: true });
let h: Awaited<ReturnType<typeof setUpTenant>>;

beforeAll(async () => {
  h = await setUpTenant();
});

beforeEach(() => {
  for (const execute of Object.values(executes)) execute.mockClear();
});

async function heldRun(callId: string, args: Record<string, unknown>, after: Turn) {
  const model = new ScriptedModel([() => [callTool(callId, 'send_payout', args)], after]);
  const agent = h.agentWith(model);
  const result = await runner.run(agent, 'Pay the partner', { context: { userId: 'u-2' } });
  expect(result.interruptions).toHaveLength(1);
  const [request] = toolgateApprovals(result);
  expect(request).toMatchObject({ contract: 'agents.payout', approval: { status: 'pending' } });
  expect(request!.item.rawItem).toMatchObject({ type: 'function_call', callId });
  expect(executes.payout).not.toHaveBeenCalled();
  return { model, agent, result, approvalId: request!.approval.id };
}

describe('calls held for approval', () => {
  it("pauses the run, then runs the call exactly once after Toolgate's approval", async () => {
    const { agent, result, approvalId } = await heldRun('call_held', { partner: 'p-1', amount_cents: 12_000 }, (output) => [
      say(`paid: ${output}`),
    ]);
    const approval = await db().approval.findUniqueOrThrow({ where: { id: approvalId } });
    expect(approval).toMatchObject({
      tenantId: h.t.tenant.id,
      callId: 'call_held',
      status: 'pending',
      tool: 'agents.payout',
      userId: 'u-2',
    });

    await h.decide(approvalId, { decision: 'approve', comment: 'fine' });
    const settled = await settleToolgateApprovals(result, { timeoutMs: 5_000 });
    expect(settled.map((s) => s.outcome)).toEqual(['approved']);
    const resumed = await runner.run(agent, result.state);

    expect(executes.payout).toHaveBeenCalledExactlyOnceWith({ partner: 'p-1', amount_cents: 12_000 });
    expect(resumed.interruptions).toEqual([]);
    expect(resumed.finalOutput).toBe('paid: {"payout_id":"po_p-1_12000"}');
    expect(await h.trail('call_held')).toEqual(['pre:require_approval', 'approval_decision:approved', 'pre:allow', 'post:allow']);
    expect(await db().approval.findUniqueOrThrow({ where: { id: approvalId } })).toMatchObject({
      status: 'approved',
      tokenUsedAt: expect.any(Date),
    });
  });

  it('pauses an escalated call the same way and runs it once the higher role approved', async () => {
    const model = new ScriptedModel([
      () => [callTool('call_escalated', 'refund_payment', { payment_id: 'pay_abcdefgh12', amount_cents: 9_999 })],
      () => [say('refunded')],
    ]);
    const agent = h.agentWith(model);
    const result = await runner.run(agent, 'Refund 99.99');
    const [request] = toolgateApprovals(result);
    expect(request).toMatchObject({ contract: 'agents.refund', approval: { status: 'pending' } });
    expect(await db().approval.findUniqueOrThrow({ where: { id: request!.approval.id } })).toMatchObject({
      approverRoles: 'admin',
      policyRule: 'odd-refund',
    });
    await h.decide(request!.approval.id, { decision: 'approve' });
    await settleToolgateApprovals(result, { timeoutMs: 5_000 });
    const resumed = await runner.run(agent, result.state);
    expect(resumed.finalOutput).toBe('refunded');
    expect(executes.refund).toHaveBeenCalledExactlyOnceWith({ payment_id: 'pay_abcdefgh12', amount_cents: 9_999 });
    expect(await h.trail('call_escalated')).toEqual(['pre:escalate', 'approval_decision:approved', 'pre:allow', 'post:allow']);
  });

  it("runs the arguments an approver edited, bound to Toolgate's token", async () => {
    const { agent, result, approvalId } = await heldRun('call_edited', { partner: 'p-2', amount_cents: 90_000 }, () => [say('ok')]);
    await h.decide(approvalId, { decision: 'approve', arguments: { partner: 'p-2', amount_cents: 9_000 } });
    await settleToolgateApprovals(result, { timeoutMs: 5_000 });
    await runner.run(agent, result.state);
    expect(executes.payout).toHaveBeenCalledExactlyOnceWith({ partner: 'p-2', amount_cents: 9_000 });
    expect(await h.trail('call_edited')).toEqual(['pre:require_approval', 'approval_decision:approved', 'pre:allow', 'post:allow']);
  });

  it('tells the model when an approver denied the call, with their comment, and never runs it', async () => {
    const { model, agent, result, approvalId } = await heldRun('call_denied', { partner: 'p-3', amount_cents: 50_000 }, () => [
      say('understood'),
    ]);
    await h.decide(approvalId, { decision: 'deny', comment: 'partner p-3 is under review' });
    const settled = await settleToolgateApprovals(result, { timeoutMs: 5_000 });
    expect(settled.map((s) => s.outcome)).toEqual(['denied']);
    const resumed = await runner.run(agent, result.state);
    expect(executes.payout).not.toHaveBeenCalled();
    expect(model.seen[1]).toBe(
      'An approver denied this call to agents.payout ("partner p-3 is under review"); it did not run. Do not retry; tell the user the call was denied.',
    );
    expect(resumed.finalOutput).toBe('understood');
    expect(await h.trail('call_denied')).toEqual(['pre:require_approval', 'approval_decision:denied']);
  });

  it("does not run on the framework's approval alone while Toolgate's approval is pending", async () => {
    const { model, agent, result, approvalId } = await heldRun('call_unapproved', { partner: 'p-4', amount_cents: 40_000 }, () => [
      say('waiting'),
    ]);
    // The developer approves in the framework, for this call and every later one, without anyone deciding in Toolgate.
    result.state.approve(result.interruptions[0]!, { alwaysApprove: true });
    await runner.run(agent, result.state);
    expect(executes.payout).not.toHaveBeenCalled();
    expect(model.seen[1]).toBe(
      `The call to agents.payout is still waiting for approval ${approvalId} in Toolgate; it did not run. Tell the user it awaits approval and do not repeat it meanwhile.`,
    );
    expect(await db().approval.findUniqueOrThrow({ where: { id: approvalId } })).toMatchObject({ status: 'pending' });
    expect(await h.trail('call_unapproved')).toEqual(['pre:require_approval']);
  });

  it('leaves a call pending when nobody decides in time, and settles it later', async () => {
    const { agent, result, approvalId } = await heldRun('call_later', { partner: 'p-5', amount_cents: 30_000 }, () => [say('ok')]);
    const waited = await settleToolgateApprovals(result, { timeoutMs: 0 });
    expect(waited.map((s) => s.outcome)).toEqual(['pending']);
    expect(result.state.getInterruptions()).toHaveLength(1);
    await h.decide(approvalId, { decision: 'approve' });
    expect((await settleToolgateApprovals(result, { timeoutMs: 5_000 })).map((s) => s.outcome)).toEqual(['approved']);
    const resumed = await runner.run(agent, result.state);
    expect(resumed.finalOutput).toBe('ok');
    expect(executes.payout).toHaveBeenCalledOnce();
  });

  it('resumes a run restored from its serialized state by redeeming the approval Toolgate granted', async () => {
    const { agent, result, approvalId } = await heldRun('call_restored', { partner: 'p-6', amount_cents: 20_000 }, () => [say('paid')]);
    const saved = result.state.toString();
    await h.decide(approvalId, { decision: 'approve' });

    // Another process: the state comes back from storage, with the approval id the first one kept.
    const restored = await RunState.fromString(agent, saved);
    const [item] = restored.getInterruptions();
    expect(item?.rawItem).toMatchObject({ callId: 'call_restored' });
    restored.approve(item!);
    const resumed = await runner.run(agent, restored);

    expect(resumed.finalOutput).toBe('paid');
    expect(executes.payout).toHaveBeenCalledExactlyOnceWith({ partner: 'p-6', amount_cents: 20_000 });
    expect(await h.trail('call_restored')).toEqual(['pre:require_approval', 'approval_decision:approved', 'pre:allow', 'post:allow']);
    expect(await db().approval.count({ where: { tenantId: h.t.tenant.id, callId: 'call_restored' } })).toBe(1);
  });

  it('runs a restored call with the arguments its approver edited, once, without asking again', async () => {
    const { agent, result, approvalId } = await heldRun('call_restored_edit', { partner: 'p-8', amount_cents: 80_000 }, () => [
      say('paid less'),
    ]);
    const saved = result.state.toString();
    await h.decide(approvalId, { decision: 'approve', arguments: { partner: 'p-8', amount_cents: 8_000 } });
    const restored = await RunState.fromString(agent, saved);
    restored.approve(restored.getInterruptions()[0]!);
    await runner.run(agent, restored);

    // The restored call finds the approval granted for it (not a twin queued beside it, which a
    // person could deny while this one still redeemed) and runs what the approver approved.
    expect(executes.payout).toHaveBeenCalledExactlyOnceWith({ partner: 'p-8', amount_cents: 8_000 });
    expect(await db().approval.count({ where: { tenantId: h.t.tenant.id, callId: 'call_restored_edit' } })).toBe(1);
    expect(await h.trail('call_restored_edit')).toEqual([
      'pre:require_approval',
      'approval_decision:approved',
      'pre:require_approval',
      'pre:allow',
      'post:allow',
    ]);
  });

  it('runs a call the model repeats after its approval was granted, without pausing again', async () => {
    const first = await heldRun('call_first_ask', { partner: 'p-7', amount_cents: 15_000 }, () => [say('asked')]);
    await h.decide(first.approvalId, { decision: 'approve' });
    // A new run (the first was abandoned) proposes exactly the same call.
    const model = new ScriptedModel([
      () => [callTool('call_second_ask', 'send_payout', { partner: 'p-7', amount_cents: 15_000 })],
      () => [say('paid')],
    ]);
    const result = await runner.run(h.agentWith(model), 'Pay the partner', { context: { userId: 'u-2' } });
    expect(result.interruptions).toEqual([]);
    expect(executes.payout).toHaveBeenCalledOnce();
    expect(await h.trail('call_second_ask')).toEqual(['pre:allow', 'post:allow']);
  });
});
