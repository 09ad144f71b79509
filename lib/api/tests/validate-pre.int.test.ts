import { beforeAll, describe, expect, it } from 'vitest';
import { db } from '@/lib/db';
import { EXAMPLE_CONTRACTS } from '@/lib/contracts/examples';
import { call, expectCodes } from '@/lib/testing/api-client';
import { createTestTenant, publishContract } from '@/lib/testing/fixtures';
import { validatePreHandler as validatePre, validatePostHandler as validatePost } from '@/lib/api/handlers/validate';
import { hashHex } from '@/lib/evidence/stored-hashes';

let t: Awaited<ReturnType<typeof createTestTenant>>;

beforeAll(async () => {
  t = await createTestTenant();
  for (const contract of EXAMPLE_CONTRACTS) await publishContract(t.tenant.id, contract);
});

const lookup = (args: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
  call(validatePre, {
    key: t.agentKey,
    body: { tool: 'orders.lookup', call_id: `c-${Math.random()}`, arguments: args, context: { tenant_id: 'acme' }, ...extra },
  });

describe('validate/pre', () => {
  it('allows a valid call and records evidence before answering', async () => {
    const res = await lookup({ tenant_id: 'acme', order_id: 'ord_abc123' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ valid: true, decision: 'allow', errors: [], tool: 'orders.lookup', version: '1.3.0' });
    expect(res.body.trace_id).toMatch(/^[0-9a-f]{32}$/);
    expect(res.body.llm_message).toBeUndefined();
    const evidence = await db().evidence.findUniqueOrThrow({ where: { id: res.body.evidence_id }, include: { tenant: true } });
    expect(evidence).toMatchObject({
      tenant: { tenantId: t.tenant.id },
      decision: 'allow',
      valid: true,
      tool: 'orders.lookup',
      contractVersion: '1.3.0',
      kind: 'pre',
    });
    // Stored as its 32 bytes (lib/evidence/stored-hashes.ts).
    expect(hashHex(evidence.argsHash)).toMatch(/^[0-9a-f]{64}$/);
    // The tenant did not opt in to raw arguments.
    expect(evidence.arguments).toBeNull();
  });

  it('refuses an unknown tool with AXAG_UNKNOWN_TOOL, the seed envelope and an llm_message', async () => {
    const res = await call(validatePre, { key: t.agentKey, body: { tool: 'nope.missing', call_id: 'x1', arguments: {} } });
    expect(res.status).toBe(200);
    expect(res.body.decision).toBe('deny');
    expectCodes(res.body.errors, ['AXAG_UNKNOWN_TOOL']);
    // The envelope names the failure (the code's envelope type); the error keeps its table type.
    expect(res.body.error).toMatchObject({ code: 'AXAG_VALIDATION_ERROR', type: 'unknown_tool', details: { intent: 'nope.missing' } });
    expect(res.body.errors[0].type).toBe('request_error');
    expect(typeof res.body.llm_message).toBe('string');
    expect(res.body.llm_message).toContain('nope.missing');
  });

  it('refuses a pinned version that was never published', async () => {
    const res = await lookup({ tenant_id: 'acme', order_id: 'ord_abc123' }, { version: '9.9.9' });
    expectCodes(res.body.errors, ['AXAG_VERSION_NOT_FOUND']);
    const pinned = await lookup({ tenant_id: 'acme', order_id: 'ord_abc123' }, { version: '1.3.0' });
    expect(pinned.body.decision).toBe('allow');
  });

  it('maps schema failures to the seed codes and stores a violation per error', async () => {
    const res = await call(validatePre, {
      key: t.agentKey,
      body: {
        tool: 'cart.begin_checkout',
        call_id: 'v1',
        arguments: { tenant_id: 'acme', user_id: 'u1', currency: 'JPY', items: [{ sku: 'ABC-1234', quantity: 12 }] },
        context: { tenant_id: 'acme', user_id: 'u1', roles: ['shopper'] },
      },
    });
    expect(res.body.decision).toBe('deny');
    const codes = res.body.errors.map((e: { code: string }) => e.code);
    expect(codes).toContain('AXAG_INVALID_ENUM');
    expect(codes).toContain('AXAG_OUT_OF_RANGE');
    const range = res.body.errors.find((e: { code: string }) => e.code === 'AXAG_OUT_OF_RANGE');
    expect(range).toMatchObject({ type: 'constraint_error', path: '$.items[0].quantity', details: { intent: 'cart.begin_checkout' } });
    const violations = await db().violation.findMany({ where: { evidenceId: res.body.evidence_id } });
    expect(violations.map((v) => v.code).sort()).toEqual([...codes].sort());
  });

  it('enforces the tenant boundary and scope from the contract', async () => {
    const cross = await lookup({ tenant_id: 'other-co', order_id: 'ord_abc123' });
    expectCodes(cross.body.errors, ['AXAG_TENANT_BOUNDARY']);
    const res = await call(validatePre, {
      key: t.agentKey,
      body: {
        tool: 'cart.begin_checkout',
        call_id: 's1',
        arguments: { tenant_id: 'acme', user_id: 'someone-else', currency: 'EUR', items: [{ sku: 'ABC-1234', quantity: 1 }] },
        context: { tenant_id: 'acme', user_id: 'u1', roles: ['shopper'] },
        confirmation_token: undefined,
      },
    });
    expect(res.body.errors.map((e: { code: string }) => e.code)).toContain('AXAG_SCOPE_VIOLATION');
  });

  it('requires a role the contract names', async () => {
    const res = await call(validatePre, {
      key: t.agentKey,
      body: {
        tool: 'cart.begin_checkout',
        call_id: 'r1',
        arguments: { tenant_id: 'acme', user_id: 'u1', currency: 'EUR', items: [{ sku: 'ABC-1234', quantity: 1 }] },
        context: { tenant_id: 'acme', user_id: 'u1', roles: ['guest'] },
      },
    });
    expect(res.body.errors.map((e: { code: string }) => e.code)).toContain('AXAG_ROLE_INSUFFICIENT');
  });

  it('fails a precondition with the contract message and suggestion', async () => {
    const res = await call(validatePre, {
      key: t.agentKey,
      body: {
        tool: 'cart.begin_checkout',
        call_id: 'p1',
        arguments: { tenant_id: 'acme', user_id: 'u1', currency: 'EUR', items: [] },
        context: { tenant_id: 'acme', user_id: 'u1', roles: ['shopper'] },
      },
    });
    const failed = res.body.errors.find((e: { code: string }) => e.code === 'AXAG_PRECONDITION_FAILED');
    expect(failed).toMatchObject({
      type: 'precondition_error',
      details: { failed_precondition: 'cart must have at least one item', suggestion: 'Add items to cart before beginning checkout' },
    });
  });

  it('warns on a duplicate non-idempotent call but not on an idempotent one', async () => {
    const body = (callId: string) => ({
      tool: 'cart.begin_checkout',
      call_id: callId,
      arguments: { tenant_id: 'acme', user_id: 'dup-user', currency: 'EUR', items: [{ sku: 'DUP-0001', quantity: 1 }] },
      context: { tenant_id: 'acme', user_id: 'dup-user', roles: ['shopper'] },
    });
    // Confirmation is required by this contract; confirm each call as the host app would.
    const { createConfirmationHandler: confirm } = await import('@/lib/api/handlers/confirmations');
    const tokenFor = async () =>
      (
        await call(confirm, {
          key: t.agentKey,
          body: { tool: 'cart.begin_checkout', arguments: body('x').arguments, context: { user_id: 'dup-user' } },
        })
      ).body.confirmation_token;
    const first = await call(validatePre, { key: t.agentKey, body: { ...body('d1'), confirmation_token: await tokenFor() } });
    expect(first.body.decision).toBe('allow');
    expect(first.body.warnings).toEqual([]);
    const second = await call(validatePre, { key: t.agentKey, body: { ...body('d2'), confirmation_token: await tokenFor() } });
    expect(second.body.decision).toBe('allow');
    expectCodes(second.body.warnings, ['AXAG_DUPLICATE_CALL']);
    expect(second.body.warnings[0].type).toBe('idempotency_warning');

    const a = await lookup({ tenant_id: 'acme', order_id: 'ord_same01' });
    const b = await lookup({ tenant_id: 'acme', order_id: 'ord_same01' });
    expect(a.body.warnings).toEqual([]);
    expect(b.body.warnings).toEqual([]);
  });

  it('keeps __proto__ and constructor keys as plain data', async () => {
    const raw = `{"tool":"orders.lookup","call_id":"proto","arguments":{"tenant_id":"acme","order_id":"ord_abc123","__proto__":{"polluted":true},"constructor":{"prototype":{"polluted":true}}},"context":{"tenant_id":"acme"}}`;
    const res = await call(validatePre, { key: t.agentKey, rawBody: raw });
    expect(res.status).toBe(200);
    expect(res.body.decision).toBe('deny');
    expect(res.body.errors.map((e: { code: string }) => e.code)).toContain('AXAG_UNKNOWN_PARAM');
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect((Object.prototype as Record<string, unknown>).polluted).toBeUndefined();
  });
});

describe('validate/post', () => {
  it('puts pre and post of one call_id in one trace and checks the output', async () => {
    const args = { tenant_id: 'acme', order_id: 'ord_trace1' };
    const pre = await call(validatePre, {
      key: t.agentKey,
      body: { tool: 'orders.lookup', call_id: 'trace-1', arguments: args, context: { tenant_id: 'acme' } },
    });
    const post = await call(validatePost, {
      key: t.agentKey,
      body: { tool: 'orders.lookup', call_id: 'trace-1', arguments: args, result: { order_id: 'ord_trace1', status: 'paid' } },
    });
    expect(post.status).toBe(200);
    expect(post.body).toMatchObject({ valid: true, decision: 'allow', trace_id: pre.body.trace_id, version: '1.3.0' });
    const trace = await db().evidence.findMany({
      where: { tenant: { tenantId: t.tenant.id }, traceId: pre.body.trace_id },
      orderBy: { seq: 'asc' },
    });
    expect(trace.map((e) => e.kind)).toEqual(['pre', 'post']);

    const bad = await call(validatePost, {
      key: t.agentKey,
      body: { tool: 'orders.lookup', call_id: 'trace-1', arguments: args, result: { order_id: 'ord_other1', status: 'lost' } },
    });
    const codes = bad.body.errors.map((e: { code: string }) => e.code);
    expect(codes).toContain('AXAG_OUTPUT_MISMATCH');
    expect(bad.body.decision).toBe('deny');
  });

  it('fails postconditions, missing side effects and error-schema mismatches', async () => {
    const args = { tenant_id: 'acme', user_id: 'u1', currency: 'EUR', items: [{ sku: 'ABC-1234', quantity: 1 }] };
    const post = await call(validatePost, {
      key: t.agentKey,
      body: {
        tool: 'cart.begin_checkout',
        call_id: 'post-2',
        arguments: args,
        context: { tenant_id: 'acme', user_id: 'u1' },
        result: { order_id: 'o1', total_cents: 0, status: 'pending_payment' },
        side_effects: [{ id: 'email_sent' }],
      },
    });
    expectCodes(post.body.errors, ['AXAG_POSTCONDITION_FAILED', 'AXAG_SIDE_EFFECT_MISSING']);
    const ok = await call(validatePost, {
      key: t.agentKey,
      body: {
        tool: 'cart.begin_checkout',
        call_id: 'post-3',
        arguments: args,
        result: { order_id: 'o1', total_cents: 1200, status: 'pending_payment' },
        side_effects: [{ id: 'stock_reserved' }],
      },
    });
    expect(ok.body).toMatchObject({ valid: true, decision: 'allow' });
    const err = await call(validatePost, {
      key: t.agentKey,
      body: { tool: 'cart.begin_checkout', call_id: 'post-4', arguments: args, error: { oops: true } },
    });
    // Both required fields of the error schema are missing: one issue each.
    expectCodes(err.body.errors, ['AXAG_ERROR_SCHEMA_MISMATCH', 'AXAG_ERROR_SCHEMA_MISMATCH']);
    const goodErr = await call(validatePost, {
      key: t.agentKey,
      body: { tool: 'cart.begin_checkout', call_id: 'post-5', arguments: args, error: { code: 'OUT_OF_STOCK', message: 'no stock' } },
    });
    expect(goodErr.body.valid).toBe(true);
  });

  it("checks a post without a version against the call's newest pre, however many pres the trace holds", async () => {
    const own = await createTestTenant();
    const lookupContract = EXAMPLE_CONTRACTS.find((c) => c.id === 'orders.lookup')!;
    await publishContract(own.tenant.id, lookupContract);
    await publishContract(own.tenant.id, { ...lookupContract, version: '1.4.0' });
    const args = { tenant_id: 'acme', order_id: 'ord_many01' };
    const pre = (version?: string) =>
      call(validatePre, {
        key: own.agentKey,
        body: {
          tool: 'orders.lookup',
          call_id: 'many-pres',
          arguments: args,
          context: { tenant_id: 'acme' },
          ...(version ? { version } : {}),
        },
      });
    // More pres of one call than a bounded read of the trace takes, the newest last.
    for (let i = 0; i < 1000; i += 50) {
      const answers = await Promise.all(Array.from({ length: 50 }, () => pre('1.3.0')));
      expect(answers.every((a) => a.status === 200 && a.body.version === '1.3.0')).toBe(true);
    }
    expect((await pre()).body.version).toBe('1.4.0');
    const post = await call(validatePost, {
      key: own.agentKey,
      body: { tool: 'orders.lookup', call_id: 'many-pres', arguments: args, result: { order_id: 'ord_many01', status: 'paid' } },
    });
    expect(post.status).toBe(200);
    expect(post.body).toMatchObject({ valid: true, decision: 'allow', version: '1.4.0' });
    const stored = await db().evidence.findUniqueOrThrow({ where: { id: post.body.evidence_id } });
    expect(stored).toMatchObject({ kind: 'post', contractVersion: '1.4.0' });
  });

  it('rejects a post body with both result and error', async () => {
    const res = await call(validatePost, {
      key: t.agentKey,
      body: { tool: 'orders.lookup', call_id: 'x', arguments: {}, result: {}, error: {} },
    });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('bad_request');
  });
});
