import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { db } from '@/lib/db';
import { createApiKey } from '@/lib/auth/api-keys';
import { EXAMPLE_CONTRACTS } from '@/lib/contracts/examples';
import { call } from '@/lib/testing/api-client';
import { createTestTenant, publishContract } from '@/lib/testing/fixtures';
import { validatePreHandler as validatePre, validatePostHandler as validatePost } from '@/lib/api/handlers/validate';
import { decideApprovalHandler as decide } from '@/lib/api/handlers/approvals';
import { savePolicyDraftHandler as savePolicy, publishPolicyVersionHandler as publishPolicy } from '@/lib/api/handlers/policies';
import { startOtlpReceiver, type OtlpReceiver, type ReceivedSpan } from './testing/otlp-receiver';
import { endTraceExport, restartTraceExport } from './testing/trace-export-env';
import { flushTraceExport, telemetryDropCounts } from './trace-export';

// Spans travel through the real SDK, batch processor and OTLP/HTTP JSON exporter to a receiver
// in this process; flushTraceExport waits for the batch instead of the processor's timer.
let receiver: OtlpReceiver;
let plain: Awaited<ReturnType<typeof createTestTenant>>;
let retaining: Awaited<ReturnType<typeof createTestTenant>>;

const traceExportVars = () => ({
  OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
  OTEL_EXPORTER_OTLP_HEADERS: 'x-collector-key=s3cret',
  OTEL_SERVICE_NAME: 'toolgate-int',
  OTEL_RESOURCE_ATTRIBUTES: 'deployment.environment.name=test',
  OTEL_SDK_DISABLED: undefined,
  OTEL_TRACES_EXPORTER: undefined,
  TOOLGATE_OTEL_ARGUMENTS: undefined,
});

beforeAll(async () => {
  receiver = await startOtlpReceiver();
  plain = await createTestTenant();
  retaining = await createTestTenant({ storeRawArguments: true });
  for (const contract of EXAMPLE_CONTRACTS) {
    await publishContract(plain.tenant.id, contract);
    await publishContract(retaining.tenant.id, contract);
  }
});

beforeEach(async () => {
  expect(await restartTraceExport(traceExportVars())).toBe(true);
});

afterAll(async () => {
  await endTraceExport();
  await receiver.close();
});

const lookupArgs = { tenant_id: 'acme', order_id: 'ord_abc123' };
const lookup = (tenant: typeof plain, callId: string, headers: Record<string, string> = {}, args: Record<string, unknown> = lookupArgs) =>
  call(validatePre, {
    key: tenant.agentKey,
    headers,
    body: { tool: 'orders.lookup', call_id: callId, arguments: args, context: { tenant_id: 'acme', user_id: 'u1' } },
  });

/** The span a collector received for one evidence record, after the batch is flushed. */
async function spanFor(evidenceId: string): Promise<ReceivedSpan> {
  await flushTraceExport();
  const found = receiver.spans.filter((span) => span.attributes['toolgate.evidence.id'] === evidenceId);
  expect(found).toHaveLength(1);
  return found[0] as ReceivedSpan;
}

describe('decisions exported as OpenTelemetry spans', () => {
  it('exports validate/pre and validate/post as execute_tool spans in the caller’s trace, under its span', async () => {
    const traceId = '4bf92f3577b34da6a3ce929d0e0e4736';
    const parentSpanId = '00f067aa0ba902b7';
    const traceparent = `00-${traceId}-${parentSpanId}-01`;
    const sentAtNs = BigInt(Date.now() - 1) * 1_000_000n;
    const pre = await lookup(plain, 'otel-1', { traceparent });
    const answeredAtNs = BigInt(Date.now() + 1) * 1_000_000n;
    expect(pre.body).toMatchObject({ decision: 'allow', valid: true, version: '1.3.0' });
    const post = await call(validatePost, {
      key: plain.agentKey,
      headers: { traceparent },
      body: { tool: 'orders.lookup', call_id: 'otel-1', arguments: lookupArgs, result: { order_id: 'ord_abc123', status: 'paid' } },
    });
    expect(post.body).toMatchObject({ decision: 'allow', valid: true });

    const row = await db().evidence.findUniqueOrThrow({ where: { id: pre.body.evidence_id } });
    const preSpan = await spanFor(pre.body.evidence_id);
    expect(preSpan).toMatchObject({ name: 'execute_tool orders.lookup', kind: 1, traceId, parentSpanId, statusCode: 0 });
    expect(preSpan.attributes).toEqual({
      'gen_ai.operation.name': 'execute_tool',
      'gen_ai.tool.name': 'orders.lookup',
      'gen_ai.tool.call.id': 'otel-1',
      'toolgate.decision': 'allow',
      'toolgate.evidence.kind': 'pre',
      'toolgate.evidence.id': row.id,
      'toolgate.evidence.seq': row.seq,
      'toolgate.tenant.id': plain.tenant.id,
      'toolgate.trace.id': pre.body.trace_id,
      'toolgate.contract.version': '1.3.0',
      'toolgate.contract.hash': pre.body.contract_hash,
      'toolgate.commit_ms': expect.any(Number),
    });
    // From the request coming in to its evidence committed, on the wall clock.
    expect(preSpan.startTimeUnixNano).toBeGreaterThanOrEqual(sentAtNs);
    expect(preSpan.endTimeUnixNano).toBeGreaterThanOrEqual(preSpan.startTimeUnixNano);
    expect(preSpan.endTimeUnixNano).toBeLessThanOrEqual(answeredAtNs);
    expect(preSpan.resource).toMatchObject({ 'service.name': 'toolgate-int', 'deployment.environment.name': 'test' });
    expect(receiver.headers['x-collector-key']).toBe('s3cret');

    const postSpan = await spanFor(post.body.evidence_id);
    expect(postSpan).toMatchObject({ name: 'execute_tool orders.lookup', traceId, parentSpanId, statusCode: 0 });
    expect(postSpan.attributes).toMatchObject({
      'toolgate.evidence.kind': 'post',
      'toolgate.decision': 'allow',
      'gen_ai.tool.call.id': 'otel-1',
    });
  });

  it('makes a call without traceparent a root span in Toolgate’s trace, shared by its pre and post', async () => {
    const pre = await lookup(plain, 'otel-root');
    const post = await call(validatePost, {
      key: plain.agentKey,
      body: { tool: 'orders.lookup', call_id: 'otel-root', arguments: lookupArgs, result: { order_id: 'ord_abc123', status: 'paid' } },
    });
    const preSpan = await spanFor(pre.body.evidence_id);
    const postSpan = await spanFor(post.body.evidence_id);
    expect(preSpan).toMatchObject({ traceId: pre.body.trace_id, parentSpanId: null });
    expect(postSpan).toMatchObject({ traceId: pre.body.trace_id, parentSpanId: null });
    expect(postSpan.spanId).not.toBe(preSpan.spanId);
  });

  it('ignores a malformed or all-zero traceparent, as the W3C format says', async () => {
    const zero = await lookup(plain, 'otel-zero', { traceparent: `00-${'0'.repeat(32)}-00f067aa0ba902b7-01` });
    expect((await spanFor(zero.body.evidence_id)).traceId).toBe(zero.body.trace_id);
  });

  it('marks a refusal as an error: status ERROR, error.type the first code, every code listed', async () => {
    const refused = await call(validatePre, {
      key: plain.agentKey,
      body: {
        tool: 'cart.begin_checkout',
        call_id: 'otel-deny',
        arguments: { tenant_id: 'acme', user_id: 'u1', currency: 'JPY', items: [{ sku: 'ABC-1234', quantity: 12 }] },
        context: { tenant_id: 'acme', user_id: 'u1', roles: ['shopper'] },
      },
    });
    expect(refused.body.decision).toBe('deny');
    const codes = refused.body.errors.map((issue: { code: string }) => issue.code);
    expect(codes.length).toBeGreaterThan(1);
    const span = await spanFor(refused.body.evidence_id);
    expect(span.statusCode).toBe(2);
    expect(span.attributes).toMatchObject({ 'error.type': codes[0], 'toolgate.error.codes': codes, 'toolgate.decision': 'deny' });

    const unknown = await call(validatePre, {
      key: plain.agentKey,
      body: { tool: 'nope.missing', call_id: 'otel-unknown', arguments: {} },
    });
    const unknownSpan = await spanFor(unknown.body.evidence_id);
    expect(unknownSpan).toMatchObject({ name: 'execute_tool nope.missing', statusCode: 2 });
    expect(unknownSpan.attributes['error.type']).toBe('AXAG_UNKNOWN_TOOL');
    expect(unknownSpan.attributes['toolgate.contract.version']).toBeUndefined();

    const failedResult = await call(validatePost, {
      key: plain.agentKey,
      body: { tool: 'orders.lookup', call_id: 'otel-deny-post', arguments: lookupArgs, result: { order_id: 'ord_other1', status: 'lost' } },
    });
    expect(failedResult.body.decision).toBe('deny');
    const postSpan = await spanFor(failedResult.body.evidence_id);
    expect(postSpan.statusCode).toBe(2);
    expect(postSpan.attributes['error.type']).toBe(failedResult.body.errors[0].code);
  });

  it('names the approval a held call created and the approver’s decision on it, which is not an error', async () => {
    const refundArgs = { tenant_id: 'acme', payment_id: 'pay_abcdefgh12', amount_cents: 500, reason: 'duplicate' };
    const context = { tenant_id: 'acme', user_id: 'agent-user', roles: ['support'], state: { payment_status: 'captured' } };
    const held = await call(validatePre, {
      key: plain.agentKey,
      body: { tool: 'payments.refund', call_id: 'otel-refund', arguments: refundArgs, context },
    });
    expect(held.body.decision).toBe('require_approval');
    const approvalId: string = held.body.approval.id;
    const heldSpan = await spanFor(held.body.evidence_id);
    expect(heldSpan.statusCode).toBe(0);
    expect(heldSpan.attributes).toMatchObject({
      'toolgate.decision': 'require_approval',
      'toolgate.approval.id': approvalId,
      'toolgate.error.codes': ['AXAG_APPROVAL_MISSING'],
    });
    expect(heldSpan.attributes['error.type']).toBeUndefined();

    const approved = await call(decide, { key: plain.adminKey, params: { id: approvalId }, body: { decision: 'approve' } });
    expect(approved.body.status).toBe('approved');
    const decision = await db().evidence.findFirstOrThrow({
      where: { tenant: { tenantId: plain.tenant.id }, kind: 'approval_decision', callId: 'otel-refund' },
    });
    const decisionSpan = await spanFor(decision.id);
    expect(decisionSpan).toMatchObject({ name: 'execute_tool payments.refund', traceId: held.body.trace_id, statusCode: 0 });
    expect(decisionSpan.attributes).toMatchObject({
      'toolgate.evidence.kind': 'approval_decision',
      'toolgate.decision': 'approved',
      'toolgate.approval.id': approvalId,
      'gen_ai.tool.call.id': 'otel-refund',
    });
  });

  it('names the deciding policy and rule, and the MCP server a call went through', async () => {
    // A tenant of its own: the policy would refuse the other tests' lookups.
    const tenant = await createTestTenant();
    for (const contract of EXAMPLE_CONTRACTS) await publishContract(tenant.tenant.id, contract);
    const authorKey = (await createApiKey({ tenantId: tenant.tenant.id, name: 'author', scopes: ['author'] })).key;
    const policy = {
      id: 'otel-policy',
      version: '1.0.0',
      rules: [{ id: 'no-lookups', tools: ['orders.lookup'], decision: 'deny', reason: 'no' }],
    };
    expect((await call(savePolicy, { key: authorKey, body: policy })).status).toBeLessThan(300);
    const published = await call(publishPolicy, {
      key: authorKey,
      params: { id: 'otel-policy', version: '1.0.0' },
      body: { mode: 'enforce' },
    });
    expect(published.status).toBe(200);

    const denied = await call(validatePre, {
      key: tenant.agentKey,
      body: { tool: 'orders.lookup', call_id: 'otel-policy', arguments: lookupArgs, context: { tenant_id: 'acme' }, mcp_server: 'shop' },
    });
    expect(denied.body).toMatchObject({ decision: 'deny', policy: { policy_id: 'otel-policy', rule: 'no-lookups' } });
    const span = await spanFor(denied.body.evidence_id);
    expect(span.statusCode).toBe(2);
    expect(span.attributes).toMatchObject({
      'toolgate.policy.id': 'otel-policy',
      'toolgate.policy.version': '1.0.0',
      'toolgate.policy.rule': 'no-lookups',
      'toolgate.mcp.server': 'shop',
      'error.type': denied.body.errors[0].code,
    });
  });
});

describe('arguments on spans', () => {
  it('leaves arguments off by default, even for a tenant that retains them', async () => {
    const pre = await lookup(retaining, 'otel-args-default');
    const row = await db().evidence.findUniqueOrThrow({ where: { id: pre.body.evidence_id } });
    expect(row.arguments).not.toBeNull();
    expect((await spanFor(pre.body.evidence_id)).attributes['gen_ai.tool.call.arguments']).toBeUndefined();
  });

  it('with TOOLGATE_OTEL_ARGUMENTS=1: the redacted arguments of a retaining tenant, and still none of the others', async () => {
    await restartTraceExport({ ...traceExportVars(), TOOLGATE_OTEL_ARGUMENTS: '1' });
    const refundArgs = {
      tenant_id: 'acme',
      payment_id: 'pay_abcdefgh12',
      amount_cents: 700,
      reason: 'duplicate',
      card: { holder_name: 'Ada', last4: '4242' },
    };
    const context = { tenant_id: 'acme', user_id: 'agent-user', roles: ['support'], state: { payment_status: 'captured' } };
    const kept = await call(validatePre, {
      key: retaining.agentKey,
      body: { tool: 'payments.refund', call_id: 'otel-args-on', arguments: refundArgs, context },
    });
    const row = await db().evidence.findUniqueOrThrow({ where: { id: kept.body.evidence_id } });
    const shown = (await spanFor(kept.body.evidence_id)).attributes['gen_ai.tool.call.arguments'];
    expect(shown).toBe(row.arguments);
    expect(JSON.parse(shown as string)).toMatchObject({ amount_cents: 700, card: { holder_name: '[REDACTED]', last4: '[REDACTED]' } });
    expect(shown).not.toContain('Ada');

    const notKept = await lookup(plain, 'otel-args-plain');
    expect((await spanFor(notKept.body.evidence_id)).attributes['gen_ai.tool.call.arguments']).toBeUndefined();
  });
});

describe('switched off', () => {
  it.each([
    ['no endpoint', { OTEL_EXPORTER_OTLP_ENDPOINT: undefined }],
    ['OTEL_SDK_DISABLED=true', { OTEL_SDK_DISABLED: 'TRUE' }],
    ['OTEL_TRACES_EXPORTER=none', { OTEL_TRACES_EXPORTER: 'none' }],
  ])('exports nothing with %s', async (_label, vars) => {
    expect(await restartTraceExport({ ...traceExportVars(), ...vars })).toBe(false);
    const before = receiver.requests;
    const counts = telemetryDropCounts();
    const pre = await lookup(plain, `otel-off-${_label}`);
    expect(pre.body.decision).toBe('allow');
    await flushTraceExport();
    expect(receiver.requests).toBe(before);
    expect(telemetryDropCounts()).toEqual(counts);
  });
});
