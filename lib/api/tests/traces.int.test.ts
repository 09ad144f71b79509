import { beforeAll, describe, expect, it } from 'vitest';
import { createApiKey } from '@/lib/auth/api-keys';
import { lookupOrderContract, refundPaymentContract } from '@/lib/contracts/examples';
import { listTraces } from '@/lib/traces/list-traces';
import { recordEvidence } from '@/lib/evidence/record-evidence';
import { traceIdFor } from '@/lib/evidence/trace-id';
import type { PolicyEvidence } from '@/lib/policies/policy-evidence';
import { call } from '@/lib/testing/api-client';
import { createTestTenant, publishContract } from '@/lib/testing/fixtures';
import { validatePreHandler as validatePre, validatePostHandler as validatePost } from '@/lib/api/handlers/validate';
import { getApprovalHandler as getApproval, decideApprovalHandler as decide } from '@/lib/api/handlers/approvals';
import { listTracesHandler as traces, getTraceHandler as trace } from '@/lib/api/handlers/traces';

let t: Awaited<ReturnType<typeof createTestTenant>>;
let other: Awaited<ReturnType<typeof createTestTenant>>;
let secondKey: string;
let secondKeyId: string;

const lookupArgs = (orderId: string) => ({ tenant_id: 'acme', order_id: orderId });
const lookup = (callId: string, orderId = 'ord_abc123', key = t.agentKey) =>
  call(validatePre, {
    key,
    body: { tool: 'orders.lookup', call_id: callId, arguments: lookupArgs(orderId), context: { tenant_id: 'acme' } },
  });
const list = (query = '', key = t.adminKey) => call(traces, { key, path: `/api/v1/traces${query}` });

beforeAll(async () => {
  t = await createTestTenant();
  other = await createTestTenant();
  await publishContract(t.tenant.id, lookupOrderContract);
  await publishContract(t.tenant.id, refundPaymentContract);
  await publishContract(other.tenant.id, lookupOrderContract);
  const second = await createApiKey({ tenantId: t.tenant.id, name: 'second agent', scopes: ['validate'] });
  secondKey = second.key;
  secondKeyId = second.apiKey.id;
  // Oldest first: ok-1 (allowed, then post), bad-1 (denied), ok-2 by the second key, bad-2.
  expect((await lookup('ok-1')).body.decision).toBe('allow');
  const post = await call(validatePost, {
    key: t.agentKey,
    body: {
      tool: 'orders.lookup',
      call_id: 'ok-1',
      arguments: lookupArgs('ord_abc123'),
      result: { order_id: 'ord_abc123', status: 'paid' },
      execution_ms: 87.5,
    },
  });
  expect(post.body.decision).toBe('allow');
  expect((await lookup('bad-1', 'BAD')).body.decision).toBe('deny');
  expect((await lookup('ok-2', 'ord_abc123', secondKey)).body.decision).toBe('allow');
  expect((await lookup('bad-2', 'BAD')).body.decision).toBe('deny');
  await lookup('other-1', 'ord_abc123', other.agentKey);
});

describe('GET /api/v1/traces', () => {
  it('lists one row per call, newest first, with key name, decision, outcome and duration', async () => {
    const res = await list();
    expect(res.status).toBe(200);
    expect(res.body.traces.map((r: { call_id: string }) => r.call_id)).toEqual(['bad-2', 'ok-2', 'bad-1', 'ok-1']);
    const ok1 = res.body.traces[3];
    expect(ok1).toMatchObject({
      trace_id: traceIdFor(t.tenant.id, 'ok-1'),
      tool: 'orders.lookup',
      decision: 'allow',
      kind: 'pre',
      api_key_id: t.agentKeyId,
      api_key_name: 'agent',
      contract_version: '1.3.0',
      records: 2,
      last_kind: 'post',
      last_decision: 'allow',
      execution_ms: 87.5,
    });
    expect(ok1.duration_ms).toBeGreaterThan(0);
    expect(res.body.traces[1]).toMatchObject({
      call_id: 'ok-2',
      api_key_name: 'second agent',
      records: 1,
      last_kind: 'pre',
      execution_ms: null,
    });
    expect(res.body.next_cursor).toBeNull();
    expect(res.body.searched_back_to).toBeNull();
  });

  it('filters by decision, tool, key, time and search', async () => {
    const ids = async (query: string) => ((await list(query)).body.traces as { call_id: string }[]).map((r) => r.call_id);
    expect(await ids('?decision=deny')).toEqual(['bad-2', 'bad-1']);
    expect(await ids('?decision=escalate')).toEqual([]);
    expect(await ids(`?api_key_id=${secondKeyId}`)).toEqual(['ok-2']);
    expect(await ids('?tool=orders.lookup&decision=allow')).toEqual(['ok-2', 'ok-1']);
    expect(await ids('?tool=payments.refund')).toEqual([]);
    expect(await ids(`?since=${encodeURIComponent(new Date(Date.now() + 60_000).toISOString())}`)).toEqual([]);
    expect(await ids(`?until=${encodeURIComponent(new Date(Date.now() - 3_600_000).toISOString())}`)).toEqual([]);
    expect(
      await ids(
        `?since=${encodeURIComponent(new Date(Date.now() - 3_600_000).toISOString())}&until=${encodeURIComponent(new Date(Date.now() + 60_000).toISOString())}`,
      ),
    ).toHaveLength(4);
    // Search: call ids and trace ids by prefix (more in trace-search.int.test.ts).
    expect(await ids('?q=bad-1')).toEqual(['bad-1']);
    expect(await ids('?q=bad')).toEqual(['bad-2', 'bad-1']);
    const traceId = traceIdFor(t.tenant.id, 'ok-2');
    expect(await ids(`?q=${traceId}`)).toEqual(['ok-2']);
    expect(await ids(`?q=${traceId.slice(0, 8)}`)).toEqual(['ok-2']);
    expect(await ids(`?q=${traceId.slice(0, 8).toUpperCase()}`)).toEqual(['ok-2']);
  });

  it('pages with a keyset cursor: every call once, in order', async () => {
    const seen: string[] = [];
    let cursor: string | null = null;
    for (let i = 0; i < 5; i++) {
      const res = await list(`?limit=1${cursor ? `&cursor=${cursor}` : ''}`);
      expect(res.status).toBe(200);
      seen.push(...res.body.traces.map((r: { call_id: string }) => r.call_id));
      cursor = res.body.next_cursor;
      if (!cursor) break;
    }
    expect(seen).toEqual(['bad-2', 'ok-2', 'bad-1', 'ok-1']);
    expect(cursor).toBeNull();
    const bad = await list('?cursor=not-a-cursor');
    expect(bad.status).toBe(400);
    expect(bad.body.error.code).toBe('bad_request');
  });

  it('walks filters without an index a window at a time, and finds everything by following the cursor', async () => {
    const page = await listTraces({ tenantId: t.tenant.id, filters: { decision: 'deny' }, limit: 10, scanWindow: 2 });
    // The newest two records are bad-2 (deny) and ok-2: one match, then the window ends.
    expect(page.traces.map((r) => r.call_id)).toEqual(['bad-2']);
    expect(page.searched_back_to).not.toBeNull();
    const found: string[] = page.traces.map((r) => r.call_id);
    let cursor = page.next_cursor;
    while (cursor) {
      const next = await listTraces({ tenantId: t.tenant.id, filters: { decision: 'deny' }, limit: 10, scanWindow: 2, cursor });
      found.push(...next.traces.map((r) => r.call_id));
      cursor = next.next_cursor;
    }
    expect(found).toEqual(['bad-2', 'bad-1']);
  });

  it('is scoped to the tenant and needs an admin key or a session', async () => {
    const mine = await list('', other.adminKey);
    expect(mine.body.traces.map((r: { call_id: string }) => r.call_id)).toEqual(['other-1']);
    expect((await list(`?q=${traceIdFor(t.tenant.id, 'ok-1')}`, other.adminKey)).body.traces).toEqual([]);
    expect((await call(trace, { key: other.adminKey, params: { traceId: traceIdFor(t.tenant.id, 'ok-1') } })).status).toBe(404);
    expect((await list('', t.agentKey)).status).toBe(403);
    expect((await call(traces, { path: '/api/v1/traces' })).status).toBe(401);
    expect((await list('?limit=1000')).status).toBe(400);
    expect((await list('?unknown=1')).status).toBe(400);
  });
});

describe('GET /api/v1/traces/{traceId}', () => {
  it('shows pre -> approval wait -> approval -> pre -> tool execution -> post, with the evidence of each', async () => {
    const args = { tenant_id: 'acme', payment_id: 'pay_abcdefgh12', amount_cents: 500, reason: 'duplicate' };
    const context = { tenant_id: 'acme', user_id: 'agent-user', roles: ['support'], state: { payment_status: 'captured' } };
    const first = await call(validatePre, {
      key: t.agentKey,
      body: { tool: 'payments.refund', call_id: 'refund-trace', arguments: args, context },
    });
    expect(first.body.decision).toBe('require_approval');
    const approvalId: string = first.body.approval.id;
    const approved = await call(decide, { key: t.adminKey, params: { id: approvalId }, body: { decision: 'approve', comment: 'fine' } });
    expect(approved.status).toBe(200);
    const token = (await call(getApproval, { key: t.agentKey, params: { id: approvalId } })).body.approval_token;
    const second = await call(validatePre, {
      key: t.agentKey,
      body: { tool: 'payments.refund', call_id: 'refund-trace', arguments: args, context, approval_token: token },
    });
    expect(second.body.decision).toBe('allow');
    const post = await call(validatePost, {
      key: t.agentKey,
      body: {
        tool: 'payments.refund',
        call_id: 'refund-trace',
        arguments: args,
        context,
        result: { refund_id: 're_1', amount_cents: 500 },
        side_effects: [{ id: 'money_moved' }],
        execution_ms: 1234,
      },
    });
    expect(post.status).toBe(200);

    const traceId = traceIdFor(t.tenant.id, 'refund-trace');
    const res = await call(trace, { key: t.adminKey, params: { traceId } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ trace_id: traceId, call_id: 'refund-trace', tool: 'payments.refund', truncated: false });
    expect(res.body.records.map((r: { kind: string; decision: string }) => `${r.kind}:${r.decision}`)).toEqual([
      'pre:require_approval',
      'approval_decision:approved',
      'pre:allow',
      `post:${post.body.decision}`,
    ]);
    const [pre, , , postRecord] = res.body.records;
    expect(pre.errors.map((e: { code: string }) => e.code)).toContain('AXAG_APPROVAL_MISSING');
    expect(pre.errors[0].message).toMatch(/approval/);
    expect(pre).toMatchObject({ contract_version: '2.1.0', api_key_name: 'agent' });
    expect(pre.hash).toMatch(/^[0-9a-f]{64}$/);
    // The stored prefix of the previous record's hash (STORED_PREV_HASH_CHARS).
    expect(res.body.records[1].prev_hash).toBe(pre.hash.slice(0, 16));
    expect(postRecord.execution_ms).toBe(1234);
    expect(res.body.approvals).toHaveLength(1);
    expect(res.body.approvals[0]).toMatchObject({ id: approvalId, status: 'approved', tool: 'payments.refund', contract_version: '2.1.0' });

    const kinds = res.body.spans.map((s: { kind: string }) => s.kind);
    expect(kinds).toEqual(['validation', 'approval_wait', 'approval_decision', 'validation', 'execution', 'post_validation']);
    const execution = res.body.spans.find((s: { kind: string }) => s.kind === 'execution');
    expect(execution).toMatchObject({ duration_ms: 1234, seq: postRecord.seq });
    const wait = res.body.spans.find((s: { kind: string }) => s.kind === 'approval_wait');
    expect(wait).toMatchObject({ approval_id: approvalId, outcome: 'approved' });
    // The whole trace spans at least the tool's own run time.
    expect(res.body.duration_ms).toBeGreaterThanOrEqual(1234);

    // In the list it is one row: the first record's decision and how the call ended.
    const row = (await list('?q=refund-trace')).body.traces[0];
    expect(row).toMatchObject({ decision: 'require_approval', records: 4, last_kind: 'post', execution_ms: 1234 });
    expect((await list('?decision=require_approval')).body.traces.map((r: { call_id: string }) => r.call_id)).toEqual(['refund-trace']);
  });

  it('shows the policy span, the deciding rule and shadow evaluations; shadow differences are listed on their own', async () => {
    const policy: PolicyEvidence = {
      decision: 'deny',
      reason: 'external writes are off on weekends',
      decided_by: { policy_id: 'weekend-freeze', version: '1.2.0', rule: 'no-weekend-writes' },
      evaluated: [
        {
          policy_id: 'weekend-freeze',
          version: '1.2.0',
          rule: 'no-weekend-writes',
          decision: 'deny',
          reason: 'external writes are off on weekends',
        },
      ],
      shadow: [{ kind: 'policy', id: 'weekend-freeze', version: '1.3.0', decision: 'allow', rule: null, codes: [], differs: true }],
      duration_ms: 0.75,
    };
    const recorded = await recordEvidence({
      tenantId: t.tenant.id,
      kind: 'pre',
      requestId: 'req-policy',
      traceId: traceIdFor(t.tenant.id, 'policy-call'),
      callId: 'policy-call',
      apiKeyId: t.agentKeyId,
      tool: 'orders.lookup',
      contractVersion: '1.3.0',
      argsHash: 'a'.repeat(64),
      decision: 'deny',
      valid: false,
      errors: [{ code: 'POLICY_DENIED', type: 'policy_error', message: 'external writes are off on weekends', path: '$' }],
      warnings: [],
      durationMs: 3,
      policyId: 'weekend-freeze',
      policyVersion: '1.2.0',
      policyRule: 'no-weekend-writes',
      policy: JSON.stringify(policy),
      shadowDiffers: true,
    });
    const res = await call(trace, { key: t.adminKey, params: { traceId: traceIdFor(t.tenant.id, 'policy-call') } });
    expect(res.body.records[0].policy).toMatchObject({
      id: 'weekend-freeze',
      version: '1.2.0',
      rule: 'no-weekend-writes',
      detail: { reason: 'external writes are off on weekends', duration_ms: 0.75 },
    });
    expect(res.body.records[0].shadow_differs).toBe(true);
    const spans = res.body.spans as { kind: string; duration_ms: number; label: string }[];
    expect(spans.map((s) => s.kind)).toEqual(['validation', 'policy']);
    expect(spans[1]).toMatchObject({ duration_ms: 0.75, label: 'policy: weekend-freeze@1.2.0 rule no-weekend-writes' });
    expect(spans[0]?.duration_ms).toBe(2.25);

    const shadow = await list('?shadow_differs=true');
    expect(shadow.body.traces).toHaveLength(1);
    expect(shadow.body.traces[0]).toMatchObject({
      call_id: 'policy-call',
      seq: recorded.seq,
      shadow_differs: true,
      policy: { id: 'weekend-freeze', version: '1.2.0', rule: 'no-weekend-writes' },
    });
    expect(shadow.body.traces[0].shadow).toEqual([
      { kind: 'policy', id: 'weekend-freeze', version: '1.3.0', decision: 'allow', rule: null, differs: true },
    ]);
    expect((await list('?shadow_differs=true', other.adminKey)).body.traces).toEqual([]);
  });

  it('answers 404 for an unknown or malformed trace id', async () => {
    expect((await call(trace, { key: t.adminKey, params: { traceId: '0'.repeat(32) } })).status).toBe(404);
    expect((await call(trace, { key: t.adminKey, params: { traceId: 'nope' } })).status).toBe(404);
  });

  it('finds a trace by its id in either case, as the search does', async () => {
    const traceId = traceIdFor(t.tenant.id, 'ok-1');
    const upper = await call(trace, { key: t.adminKey, params: { traceId: traceId.toUpperCase() } });
    expect([upper.status, upper.body.trace_id]).toEqual([200, traceId]);
    expect((await list(`?q=${traceId.slice(0, 12).toUpperCase()}`)).body.traces.map((r: { trace_id: string }) => r.trace_id)).toContain(
      traceId,
    );
  });
});

describe('a page size written any way but in decimal digits', () => {
  it('is refused with 400, where it was read as the number it spells (0x10 as 16, 1e1 as 10)', async () => {
    for (const limit of ['0x10', '1e1', '%205', '+5', '5.0', '-1', '']) {
      const res = await list(`?limit=${limit}`);
      expect([res.status, res.body.error?.code], limit).toEqual([400, 'bad_request']);
    }
    const padded = await list('?limit=002');
    expect([padded.status, padded.body.traces.length]).toEqual([200, 2]);
  });
});

describe('values PostgreSQL cannot hold, in the traces query (each was a 503 "database unavailable" there)', () => {
  const list = (query: string) => call(traces, { key: t.adminKey, path: `/api/v1/traces${query}` });

  it('reads a year-0 instant as 1970, and refuses a NUL or a forged cursor past a 32-bit seq with 400', async () => {
    expect((await list('?since=0000-01-01T00:00:00Z')).status).toBe(200);
    expect((await list('?until=0000-01-01T00:00:00Z')).status).toBe(200);
    for (const query of ['?q=%00', '?tool=%00', `?cursor=${Buffer.from('[2147483649]').toString('base64url')}`]) {
      const res = await list(query);
      expect([res.status, res.body.error?.code], query).toEqual([400, 'bad_request']);
    }
  });
});
