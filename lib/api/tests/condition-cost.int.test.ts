import { beforeAll, describe, expect, it } from 'vitest';
import { createApiKey } from '@/lib/auth/api-keys';
import { CONDITION_COST_LIMIT, LINT_REQUEST_COST_LIMIT } from '@/lib/contracts/condition-cost';
import type { ToolContract } from '@/lib/contracts/contract-schema';
import { lookupOrderContract } from '@/lib/contracts/examples';
import { addMember } from '@/lib/tenants/add-member';
import { call } from '@/lib/testing/api-client';
import { createTestTenant, publishContract } from '@/lib/testing/fixtures';
import { lintHandler as lint } from '@/lib/api/handlers/lint';
import { tryPolicyHandler as tryPolicy } from '@/lib/api/handlers/try-policy';
import { validatePreHandler as validatePre } from '@/lib/api/handlers/validate';
import { asSession, signIn } from './member-sessions';

/**
 * CEL conditions run on a step budget (lib/contracts/condition-cost.ts): a condition that would
 * take 10^8 steps or more fails at the budget, as a condition that does not hold, instead of
 * stalling the server. No timing is asserted: on the old code these requests ran for tens of
 * seconds and answered as if the condition had been evaluated.
 */

let t: Awaited<ReturnType<typeof createTestTenant>>;
let authorKey: string;
let viewerCookie: string;

const BUDGET_ERROR = `condition exceeded its evaluation budget of ${CONDITION_COST_LIMIT} steps`;
const range = (n: number) => Array.from({ length: n }, (_, i) => i);

/** Four `exists` nested over the same `n`-element list literal: n^4 steps, never true. */
function nestedExists(n: number): string {
  const list = `[${range(n).join(',')}]`;
  return `${list}.exists(a, ${list}.exists(b, ${list}.exists(c, ${list}.exists(d, a + b + c + d < 0))))`;
}

const bulkImportContract: ToolContract = {
  id: 'catalog.bulk_import',
  version: '1.0.0',
  description: 'Imports catalog item ids; each id may appear once.',
  owner: 'team-catalog',
  input: {
    type: 'object',
    required: ['items'],
    additionalProperties: false,
    properties: { items: { type: 'array', maxItems: 200_000, items: { type: 'integer', minimum: 0 } } },
  },
  annotations: {
    kind: 'mutation',
    side_effect_level: 'write',
    idempotent: true,
    confirmation_required: false,
    approval_required: false,
    approver_roles: [],
  },
  preconditions: [
    {
      id: 'items_unique',
      // Quadratic in the request: 10^10 steps for 100,000 items.
      expression: 'args.items.all(a, args.items.exists_one(b, b == a))',
      message: 'each item id may appear once',
    },
  ],
};

beforeAll(async () => {
  t = await createTestTenant();
  await publishContract(t.tenant.id, lookupOrderContract);
  await publishContract(t.tenant.id, bulkImportContract);
  authorKey = (await createApiKey({ tenantId: t.tenant.id, name: 'ci', scopes: ['author'] })).key;
  const viewer = `viewer-${t.tenant.slug}@test.local`;
  await addMember({ tenantId: t.tenant.id, email: viewer, password: 'a-long-password', role: 'viewer' });
  viewerCookie = (await signIn(viewer, 'a-long-password')).cookie;
});

describe('condition cost budget through the routes', () => {
  it('validate/pre fails a quadratic precondition over 100,000 items closed, naming the budget', async () => {
    const res = await call(validatePre, {
      key: t.agentKey,
      body: { tool: 'catalog.bulk_import', call_id: 'bulk-big', arguments: { items: range(100_000) } },
    });
    expect(res.status).toBe(200);
    expect(res.body.decision).toBe('deny');
    expect(res.body.errors).toHaveLength(1);
    expect(res.body.errors[0]).toMatchObject({
      code: 'AXAG_PRECONDITION_FAILED',
      details: { condition_id: 'items_unique', evaluation_error: BUDGET_ERROR },
    });
  });

  it('validate/pre evaluates the same precondition over 100 items', async () => {
    const unique = await call(validatePre, {
      key: t.agentKey,
      body: { tool: 'catalog.bulk_import', call_id: 'bulk-small', arguments: { items: range(100) } },
    });
    expect(unique.body).toMatchObject({ decision: 'allow', errors: [] });
    const repeated = await call(validatePre, {
      key: t.agentKey,
      body: { tool: 'catalog.bulk_import', call_id: 'bulk-repeat', arguments: { items: [...range(99), 0] } },
    });
    expect(repeated.body.decision).toBe('deny');
    expect(repeated.body.errors[0].code).toBe('AXAG_PRECONDITION_FAILED');
    expect(repeated.body.errors[0].details.evaluation_error).toBeUndefined();
  });

  it("lint (a viewer's session) runs a policy's test case on four nested exists and reports the evaluation failure", async () => {
    const policy = {
      id: 'nested',
      version: '1.0.0',
      rules: [{ id: 'never', tools: ['orders.lookup'], when: nestedExists(100), decision: 'deny', reason: 'Never matches.' }],
      tests: [
        {
          name: 'lookups pass',
          tool: 'orders.lookup',
          arguments: { tenant_id: 'acme', order_id: 'ord_abc123' },
          expect: { decision: 'allow', errors: [] },
        },
      ],
    };
    const res = await call(lint, {
      headers: asSession(viewerCookie),
      body: { documents: [{ kind: 'policy', text: JSON.stringify(policy, null, 2) }] },
    });
    expect(res.status).toBe(200);
    expect(res.body.results[0].valid).toBe(false);
    expect(res.body.results[0].diagnostics).toEqual([
      expect.objectContaining({
        code: 'POLICY_TEST_FAILED',
        message: expect.stringContaining('expected errors [], got [AXAG_POLICY_EVALUATION_FAILED]'),
      }),
    ]);
  });

  it('policies/try denies with AXAG_POLICY_EVALUATION_FAILED naming the budget (four nested exists over 120)', async () => {
    const res = await call(tryPolicy, {
      key: authorKey,
      body: {
        policy: {
          id: 'nested',
          version: '0.1.0',
          rules: [{ id: 'never', tools: ['orders.lookup'], when: nestedExists(120), decision: 'deny' }],
        },
        tool: 'orders.lookup',
        arguments: { tenant_id: 'acme', order_id: 'ord_abc123' },
      },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.decision).toBe('deny');
    expect(res.body.errors).toHaveLength(1);
    expect(res.body.errors[0].code).toBe('AXAG_POLICY_EVALUATION_FAILED');
    expect(res.body.errors[0].message).toContain(BUDGET_ERROR);
  });
});

describe('one budget for a lint request', () => {
  const list = `[${range(200).join(', ')}]`;
  // About 360,000 steps and true: four cases are about 1,440,000, well inside one document's budget.
  const costly: ToolContract = {
    ...lookupOrderContract,
    version: '2.0.0',
    preconditions: [{ id: 'costly', expression: `${list}.all(a, ${list}.all(b, a + b >= 0))`, message: 'always holds' }],
    tests: range(4).map((i) => ({
      name: `lookup ${i}`,
      arguments: { tenant_id: 'acme', order_id: 'ord_abc123' },
      context: { tenant_id: 'acme' },
      expect: { decision: 'allow' as const, errors: [] },
    })),
  };

  it("runs every document's test cases on one budget, so 50 documents are not 50 budgets (a viewer's session)", async () => {
    const one = await call(lint, {
      headers: asSession(viewerCookie),
      body: { documents: [{ kind: 'contract', text: JSON.stringify(costly) }] },
    });
    expect(one.status).toBe(200);
    expect(one.body.results[0]).toMatchObject({ valid: true, diagnostics: [] });

    const res = await call(lint, {
      headers: asSession(viewerCookie),
      body: { documents: range(10).map((i) => ({ name: `c${i}.json`, kind: 'contract', text: JSON.stringify(costly) })) },
    });
    expect(res.status).toBe(200);
    const valid = res.body.results.map((r: { valid: boolean }) => r.valid);
    // The first documents pass; once the request's budget is spent, the rest fail and say why.
    expect(valid[0]).toBe(true);
    expect(valid[9]).toBe(false);
    expect(valid).toEqual([...valid].sort((a, b) => Number(b) - Number(a)));
    expect(res.body.results[9].diagnostics[0]).toMatchObject({
      code: 'CONTRACT_TEST_FAILED',
      message: expect.stringContaining(`condition exceeded its evaluation budget of ${LINT_REQUEST_COST_LIMIT} steps`),
    });
  });
});

describe("a policy's test cases count their declared history on the same budget", () => {
  // Ten limits and twenty cases that each declare the same 1,000 past calls (a YAML alias): the
  // counting, not the conditions, is the work. At 200 cases and 100 limits it took 12 s a document.
  const limits = range(10)
    .map(
      (i) =>
        `  - id: l${i}\n    tools: ["orders.*"]\n    per: ${['user', 'tenant', 'key', 'session'][i % 4]}\n    window: ${i + 1}d\n    max_calls: 1000000`,
    )
    .join('\n');
  const past = `[${range(1000)
    .map((i) => `{tool: orders.lookup, seconds_ago: ${i + 1}}`)
    .join(', ')}]`;
  const cases = (n: number) =>
    range(n)
      .map(
        (i) =>
          `  - name: case ${i}\n    tool: orders.lookup\n    history: ${i === 0 ? `&past ${past}` : '*past'}\n    expect: { decision: allow }`,
      )
      .join('\n');
  const policy = (n: number) => `id: counted\nversion: 1.0.0\nlimits:\n${limits}\ntests:\n${cases(n)}\n`;

  it('fails the cases past the budget, saying why, and runs a few of them as before (a viewer lints)', async () => {
    const few = await call(lint, { headers: asSession(viewerCookie), body: { documents: [{ kind: 'policy', text: policy(3) }] } });
    expect(few.status).toBe(200);
    expect(few.body.results[0]).toMatchObject({ valid: true, diagnostics: [] });

    const many = await call(lint, { headers: asSession(viewerCookie), body: { documents: [{ kind: 'policy', text: policy(20) }] } });
    expect(many.status).toBe(200);
    const failed = many.body.results[0].diagnostics.filter((d: { code: string }) => d.code === 'POLICY_TEST_FAILED');
    expect(failed.length).toBeGreaterThan(0);
    expect(failed.length).toBeLessThan(20);
    expect(failed.at(-1).message).toBe(
      `Test "case 19" fails: its history was not counted: condition exceeded its evaluation budget of ${LINT_REQUEST_COST_LIMIT} steps.`,
    );
  });
});
