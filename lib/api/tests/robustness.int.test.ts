import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { EXAMPLE_CONTRACTS } from '@/lib/contracts/examples';
import { contractCompilations } from '@/lib/contracts/resolve-contract';
import { call } from '@/lib/testing/api-client';
import { createTestTenant, publishContract } from '@/lib/testing/fixtures';
import { validatePreHandler as validatePre, validatePostHandler as validatePost } from '@/lib/api/handlers/validate';

let t: Awaited<ReturnType<typeof createTestTenant>>;

beforeAll(async () => {
  t = await createTestTenant();
  for (const contract of EXAMPLE_CONTRACTS) await publishContract(t.tenant.id, contract);
});

const tools = fc.constantFrom('orders.lookup', 'cart.begin_checkout', 'payments.refund', 'unknown.tool');

describe('whatever an agent sends', () => {
  it('never gets a 500: a decision (200) or a clear 4xx', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          fc.jsonValue({ maxDepth: 4 }),
          fc.record({
            tool: tools,
            call_id: fc.string({ minLength: 1, maxLength: 20 }),
            arguments: fc.dictionary(fc.string({ maxLength: 12 }), fc.jsonValue({ maxDepth: 3 })),
            context: fc.constant({ tenant_id: 'acme' }),
          }),
          fc.record(
            { tool: tools, call_id: fc.string(), arguments: fc.jsonValue({ maxDepth: 3 }), version: fc.string({ maxLength: 8 }) },
            { requiredKeys: ['tool'] },
          ),
        ),
        fc.constantFrom(validatePre, validatePost),
        async (body, handler) => {
          const res = await call(handler, { key: t.agentKey, body });
          expect([200, 400]).toContain(res.status);
          if (res.status === 200) expect(['allow', 'deny', 'require_approval']).toContain(res.body.decision);
          // fast-check's doubles include integers past 2^53-1, refused where they are not the agent's arguments.
          else expect(['bad_request', 'number_unrepresentable']).toContain(res.body.error.code);
        },
      ),
      { numRuns: 150 },
    );
  });
});

describe('a NUL in a name (which PostgreSQL text cannot hold)', () => {
  const body = (patch: Record<string, unknown>) => ({
    tool: 'orders.lookup',
    call_id: 'nul',
    arguments: { tenant_id: 'acme', order_id: 'ord_abc123' },
    context: { tenant_id: 'acme' },
    ...patch,
  });

  it.each([
    ['tool', validatePre, { tool: 'orders.lookup\u0000' }, 'AXAG_UNKNOWN_TOOL'],
    ['tool', validatePost, { tool: 'x\u0000', result: {} }, 'AXAG_UNKNOWN_TOOL'],
    ['version', validatePre, { version: '1.0.0\u0000' }, 'AXAG_VERSION_NOT_FOUND'],
  ] as const)('in %s is an unknown name, decided and recorded, not a database outage', async (_field, handler, patch, code) => {
    const res = await call(handler, { key: t.agentKey, body: body(patch) });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ decision: 'deny', errors: [expect.objectContaining({ code })] });
    expect(res.body.evidence_id).toEqual(expect.any(String));
  });
});

describe('compiled contract cache', () => {
  it('compiles a published version once, not per call', async () => {
    const body = {
      tool: 'orders.lookup',
      call_id: 'cache',
      arguments: { tenant_id: 'acme', order_id: 'ord_abc123' },
      context: { tenant_id: 'acme' },
    };
    await call(validatePre, { key: t.agentKey, body });
    const before = contractCompilations();
    for (let i = 0; i < 20; i++) expect((await call(validatePre, { key: t.agentKey, body })).body.decision).toBe('allow');
    expect(contractCompilations()).toBe(before);
  });

  it('compiles a version once when many first calls arrive together on a cold cache', async () => {
    const fresh = await createTestTenant();
    await publishContract(fresh.tenant.id, EXAMPLE_CONTRACTS[0] as (typeof EXAMPLE_CONTRACTS)[number]);
    const tool = (EXAMPLE_CONTRACTS[0] as { id: string }).id;
    const before = contractCompilations();
    const answers = await Promise.all(
      Array.from({ length: 16 }, (_, i) =>
        call(validatePre, { key: fresh.agentKey, body: { tool, call_id: `cold-${i}`, arguments: {}, context: { tenant_id: 'acme' } } }),
      ),
    );
    expect(answers.map((a) => a.status)).toEqual(Array.from({ length: 16 }, () => 200));
    expect(contractCompilations() - before).toBe(1);
  });
});
