import { beforeAll, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import * as nextRoutes from '@/app/api/v1/[...path]/route';
import { publishDocumentVersion } from '@/lib/documents/publish-document-version';
import { db } from '@/lib/db';
import { createTestTenant } from '@/lib/testing/fixtures';
import { createToolgateClient, defineTool, importTools, type FetchLike, type ToolgateClient, type ToolResult } from '@toolgate/sdk';

/**
 * The SDK against the real route handlers and a real database: tools imported as drafts,
 * published, then called in delegation mode. Requests go through an injected fetch that
 * dispatches to Next's catch-all API route in process, as Next would route them.
 */

const requested: string[] = [];
const inProcessFetch: FetchLike = async (url, init) => {
  const { pathname, search } = new URL(url);
  const method = init.method ?? 'GET';
  requested.push(`${method} ${pathname}${search}`);
  return nextRoutes[method as keyof typeof nextRoutes](new Request(url, init));
};

const clientFor = (apiKey: string): ToolgateClient =>
  createToolgateClient({ baseUrl: 'http://toolgate.test', apiKey, fetch: inProcessFetch, approvalPollIntervalMs: 20 });

function ok<T>(result: ToolResult<T>): T {
  if (result.isError) throw new Error(`expected success, got ${result.stage}: ${result.content}`);
  return result.content;
}

const refundExecute = vi.fn(async (input: { payment_id: string; amount_cents: number }, ctx: { reportSideEffect(id: string): void }) => {
  ctx.reportSideEffect('money_moved');
  return { refund_id: `re_${input.payment_id.slice(4)}`, amount_cents: input.amount_cents };
});

// The Zod schema allows refunds up to 1,000,000 cents; the contract adds a precondition that
// only the server checks, so the server can refuse what the agent accepted.
const refund = defineTool({
  name: 'refund_payment',
  description: 'Refunds part or all of a captured payment.',
  input: z.object({
    tenant_id: z.string().min(1),
    payment_id: z.string().regex(/^pay_[A-Za-z0-9]{8,32}$/),
    amount_cents: z.number().int().min(1).max(1_000_000),
    reason: z.enum(['duplicate', 'fraudulent', 'requested_by_customer']).default('requested_by_customer'),
  }),
  output: z.object({ refund_id: z.string(), amount_cents: z.number().int() }),
  contract: {
    id: 'sdk.refund',
    owner: 'team-payments',
    kind: 'mutation',
    side_effect_level: 'external',
    idempotent: false,
    scope: { tenant: 'tenant_id' },
    preconditions: [
      {
        id: 'small_refund',
        expression: 'args.amount_cents <= 10000',
        message: 'refunds above 100.00 need a human',
        suggestion: 'Refund at most 10000 cents, or hand over to a human.',
      },
    ],
    postconditions: [
      {
        id: 'not_more_than_asked',
        expression: 'result.amount_cents <= args.amount_cents',
        message: 'the refund must not exceed the requested amount',
      },
    ],
    side_effects: [{ id: 'money_moved', description: 'Money goes back to the card.', required: true }],
  },
  execute: refundExecute,
});

const payoutExecute = vi.fn(async (input: { amount_cents: number }) => ({ payout_id: `po_${input.amount_cents}` }));
const payout = defineTool({
  name: 'send_payout',
  description: 'Pays a partner.',
  input: z.object({ partner: z.string(), amount_cents: z.number().int().min(1) }),
  output: z.object({ payout_id: z.string() }),
  contract: {
    id: 'sdk.payout',
    owner: 'team-payments',
    kind: 'mutation',
    side_effect_level: 'external',
    idempotent: false,
    approval_required: true,
    approver_roles: ['approver'],
  },
  execute: payoutExecute,
});

const deleteExecute = vi.fn(async () => ({ deleted: true }));
const deleteAccount = defineTool({
  name: 'delete_account',
  description: 'Deletes an account.',
  input: z.object({ account_id: z.string() }),
  output: z.object({ deleted: z.boolean() }),
  contract: {
    id: 'sdk.delete_account',
    owner: 'team-identity',
    kind: 'mutation',
    side_effect_level: 'destructive',
    idempotent: true,
    confirmation_required: true,
  },
  execute: deleteExecute,
});

let t: Awaited<ReturnType<typeof createTestTenant>>;
let agent: ToolgateClient;
const context = { tenant_id: 'acme', user_id: 'u-1' };

beforeAll(async () => {
  t = await createTestTenant();
  agent = clientFor(t.agentKey);
});

describe('import-tools through the API', () => {
  it('refuses a key without the author scope, per tool', async () => {
    const result = await importTools({ client: agent, modules: ['tools.ts'], load: async () => ({ refund }) });
    expect(result.ok).toBe(false);
    expect(result.lines.map((l) => l.text)).toEqual([
      'failed  sdk.refund@1.0.0 (tools.ts#refund): 403 forbidden: This API key lacks the "author" scope.',
    ]);
  });

  it('saves each defineTool as a draft, which then publishes', async () => {
    const result = await importTools({
      client: clientFor(t.adminKey),
      modules: ['tools.ts'],
      load: async () => ({ refund, payout, deleteAccount }),
    });
    expect(result.lines.map((l) => l.text)).toEqual([
      'saved   sdk.refund@1.0.0 as a new draft (tools.ts#refund)',
      'saved   sdk.payout@1.0.0 as a new draft (tools.ts#payout)',
      'saved   sdk.delete_account@1.0.0 as a new draft (tools.ts#deleteAccount)',
    ]);
    const drafts = await db().contractVersion.findMany({
      where: { tenantId: t.tenant.id, status: 'draft' },
      select: { version: true, document: true },
    });
    expect(drafts.map((d) => (JSON.parse(d.document) as { id: string }).id).sort()).toEqual([
      'sdk.delete_account',
      'sdk.payout',
      'sdk.refund',
    ]);
    for (const tool of ['sdk.refund', 'sdk.payout', 'sdk.delete_account']) {
      await publishDocumentVersion({
        tenantId: t.tenant.id,
        kind: 'contract',
        id: tool,
        version: '1.0.0',
        changeNote: 'imported from lib/sdk',
      });
    }
  });
});

describe('tool.run in delegation mode', () => {
  it('allows a valid call, executes it and records pre and post evidence', async () => {
    refundExecute.mockClear();
    const result = await refund.run(
      { tenant_id: 'acme', payment_id: 'pay_abcdefgh12', amount_cents: 500 },
      { toolgate: agent, callId: 'sdk-allow', context },
    );
    expect(ok(result)).toEqual({ refund_id: 're_abcdefgh12', amount_cents: 500 });
    expect(refundExecute).toHaveBeenCalledOnce();
    if (result.isError) return;
    expect(result.pre).toMatchObject({ decision: 'allow', tool: 'sdk.refund', version: '1.0.0' });
    expect(result.post).toMatchObject({ valid: true, decision: 'allow' });
    const pre = await db().evidence.findUniqueOrThrow({ where: { id: result.pre!.evidence_id }, include: { tenant: true } });
    const post = await db().evidence.findUniqueOrThrow({ where: { id: result.post!.evidence_id } });
    expect(pre).toMatchObject({
      tenant: { tenantId: t.tenant.id },
      kind: 'pre',
      decision: 'allow',
      tool: 'sdk.refund',
      callId: 'sdk-allow',
    });
    expect(post).toMatchObject({ kind: 'post', decision: 'allow', traceId: pre.traceId });
  });

  it("lets the server refuse what Zod accepted, with the server's llm_message, without executing", async () => {
    refundExecute.mockClear();
    const result = await refund.run(
      { tenant_id: 'acme', payment_id: 'pay_abcdefgh12', amount_cents: 50_000 },
      { toolgate: agent, callId: 'sdk-deny', context },
    );
    expect(result.isError).toBe(true);
    if (!result.isError) return;
    expect(result.stage).toBe('pre');
    expect(result.pre?.decision).toBe('deny');
    expect(result.content).toBe(result.pre?.llm_message);
    expect(result.content).toContain('AXAG_PRECONDITION_FAILED');
    expect(result.content).toContain('Refund at most 10000 cents');
    expect(refundExecute).not.toHaveBeenCalled();
    const evidence = await db().evidence.findUniqueOrThrow({ where: { id: result.pre!.evidence_id } });
    expect(evidence).toMatchObject({ kind: 'pre', decision: 'deny', valid: false, callId: 'sdk-deny' });
    expect(await db().evidence.count({ where: { tenant: { tenantId: t.tenant.id }, traceId: evidence.traceId, kind: 'post' } })).toBe(0);
  });

  it('refuses a call across tenants on the server', async () => {
    const result = await refund.run({ tenant_id: 'globex', payment_id: 'pay_abcdefgh12', amount_cents: 500 }, { toolgate: agent, context });
    expect(!result.isError || result.issues.map((i) => i.code)).toEqual(['AXAG_TENANT_BOUNDARY']);
  });

  it('refuses a result that breaks a postcondition after the tool ran', async () => {
    refundExecute.mockImplementationOnce(async (input, ctx) => {
      ctx.reportSideEffect('money_moved');
      return { refund_id: 're_x', amount_cents: input.amount_cents * 2 };
    });
    const result = await refund.run({ tenant_id: 'acme', payment_id: 'pay_abcdefgh12', amount_cents: 700 }, { toolgate: agent, context });
    expect(result.isError && result.stage).toBe('post');
    expect(result.isError && result.issues.map((i) => i.code)).toEqual(['AXAG_POSTCONDITION_FAILED']);
    expect(result.isError && result.content).toMatch(
      /^refund_payment ran \(so its side effects may have happened\), but Toolgate refused its result/,
    );
  });

  it('waits for an approval, then retries with the single-use token', async () => {
    payoutExecute.mockClear();
    const running = payout.run(
      { partner: 'p-1', amount_cents: 12_000 },
      { toolgate: agent, callId: 'sdk-approval', context, waitForApproval: { timeoutMs: 20_000 } },
    );
    const pending = await vi.waitFor(
      async () => db().approval.findFirstOrThrow({ where: { tenantId: t.tenant.id, callId: 'sdk-approval', status: 'pending' } }),
      { timeout: 10_000, interval: 20 },
    );
    expect(payoutExecute).not.toHaveBeenCalled();
    const decided = await inProcessFetch(`http://toolgate.test/api/v1/approvals/${pending.id}/decision`, {
      method: 'POST',
      headers: { authorization: `Bearer ${t.adminKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ decision: 'approve', comment: 'fine' }),
    });
    expect(decided.status).toBe(200);
    const result = await running;
    expect(ok(result)).toEqual({ payout_id: 'po_12000' });
    expect(payoutExecute).toHaveBeenCalledOnce();
    // Long polls ask the server to hold the request; this one answers at once, so the client
    // fell back to its poll interval.
    expect(requested.filter((r) => r.startsWith(`GET /api/v1/approvals/${pending.id}?wait=`)).length).toBeGreaterThan(0);
    const trace = await db().evidence.findMany({
      where: { tenant: { tenantId: t.tenant.id }, callId: 'sdk-approval' },
      orderBy: { seq: 'asc' },
    });
    expect(trace.map((e) => `${e.kind}:${e.decision}`)).toEqual([
      'pre:require_approval',
      'approval_decision:approved',
      'pre:allow',
      'post:allow',
    ]);
  });

  it('without waiting, says the approval is pending and where to poll it', async () => {
    const result = await payout.run({ partner: 'p-2', amount_cents: 99 }, { toolgate: agent, callId: 'sdk-pending', context });
    expect(result.isError && result.stage).toBe('approval');
    if (!result.isError) return;
    expect(result.content).toContain(
      `Approval ${result.approval?.id} is pending (status: http://toolgate.test/api/v1/approvals/${result.approval?.id})`,
    );
    await expect(agent.getApproval(result.approval!.id)).resolves.toMatchObject({ status: 'pending', tool: 'sdk.payout' });
  });

  it("needs the user's confirmation of the exact arguments it reports", async () => {
    deleteExecute.mockClear();
    const first = await deleteAccount.run({ account_id: 'acct_1' }, { toolgate: agent, context });
    expect(first.isError && first.issues.map((i) => i.code)).toEqual(['AXAG_CONFIRMATION_MISSING']);
    if (!first.isError) return;
    // The host application shows the call to its user, who confirms it.
    const confirmation = await agent.createConfirmation({ tool: 'sdk.delete_account', arguments: first.arguments!, context });
    const second = await deleteAccount.run(
      { account_id: 'acct_1' },
      { toolgate: agent, context, confirmationToken: confirmation.confirmation_token },
    );
    expect(ok(second)).toEqual({ deleted: true });
    expect(deleteExecute).toHaveBeenCalledOnce();
  });

  it('withholds a result validate/post cannot check (over the body limit, BigInt, circular, NaN, Infinity), with a post record saying why', async () => {
    let value: unknown;
    const report = defineTool({
      name: 'report',
      description: 'Builds a report.',
      input: z.object({ topic: z.string() }),
      output: z.object({ value: z.unknown() }),
      contract: { id: 'sdk.report', owner: 'team-data', kind: 'query', side_effect_level: 'read_only', idempotent: true },
      execute: () => ({ value }),
    });
    await clientFor(t.adminKey).saveContractDraft(report.toContract({ version: '1.0.0' }));
    await publishDocumentVersion({ tenantId: t.tenant.id, kind: 'contract', id: 'sdk.report', version: '1.0.0', changeNote: 'r' });
    const circular: Record<string, unknown> = { name: 'loop' };
    circular.self = circular;
    const cases: [string, unknown, RegExp][] = [
      ['too-large', 'x'.repeat(1024 * 1024 + 1), /payload_too_large/],
      ['bigint', 12345678901234567890n, /\$\.result\.value is a BigInt/],
      ['circular', circular, /circular/],
      ['nan', { total: Number.NaN }, /\$\.result\.value\.total is NaN, which JSON cannot carry/],
      ['infinity', [1, Number.POSITIVE_INFINITY], /\$\.result\.value\[1\] is Infinity/],
    ];
    for (const [name, sent, reason] of cases) {
      value = sent;
      const result = await report.run({ topic: name }, { toolgate: agent, callId: `sdk-unchecked-${name}`, context });
      expect(result.isError, name).toBe(true);
      if (!result.isError) continue;
      expect(result.stage).toBe('post');
      expect(result.content).toMatch(/^report ran \(so its side effects may have happened\), but Toolgate could not check its result \(/);
      expect(result.content).toMatch(reason);
      const records = await db().evidence.findMany({ where: { tenant: { tenantId: t.tenant.id }, callId: `sdk-unchecked-${name}` } });
      expect(records.map((r) => r.kind).sort(), name).toEqual(['post', 'pre']);
      const post = records.find((r) => r.kind === 'post')!;
      expect(post.id).toBe(result.post?.evidence_id);
    }
  });

  it("surfaces request failures as ToolgateError with the server's code", async () => {
    const stranger = clientFor('tg_not_a_real_key');
    await expect(stranger.validatePre({ tool: 'sdk.refund', call_id: 'x', arguments: {} })).rejects.toMatchObject({
      status: 401,
      code: 'unauthorized',
    });
    await expect(agent.getApproval('apr_missing')).rejects.toMatchObject({ status: 404, code: 'not_found' });
    const result = await refund.run({ tenant_id: 'acme', payment_id: 'pay_abcdefgh12', amount_cents: 5 }, { toolgate: stranger, context });
    expect(result.isError && result.stage).toBe('toolgate');
  });
});
