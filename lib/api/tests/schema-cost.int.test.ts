import { beforeAll, describe, expect, it } from 'vitest';
import type { ToolContract } from '@/lib/contracts/contract-schema';
import { addMember } from '@/lib/tenants/add-member';
import { call } from '@/lib/testing/api-client';
import { createTestTenant, publishContract } from '@/lib/testing/fixtures';
import { lintHandler as lint } from '@/lib/api/handlers/lint';
import { validatePreHandler as validatePre } from '@/lib/api/handlers/validate';
import { asSession, signIn } from './member-sessions';

/**
 * Checking arguments against a contract schema is linear in them where Ajv was quadratic
 * (uniqueItems, enum: lib/contracts/json-equality-keywords.ts) and runs on a step budget where
 * the schema multiplies the work (lib/contracts/schema-cost.ts). No timing is asserted: on the
 * old code the first request answered 500 and the others held the server for seconds to hours.
 */

let t: Awaited<ReturnType<typeof createTestTenant>>;
let viewerCookie: string;

const annotations: ToolContract['annotations'] = {
  kind: 'mutation',
  side_effect_level: 'write',
  idempotent: true,
  confirmation_required: false,
  approval_required: false,
  approver_roles: [],
};

const tagsContract: ToolContract = {
  id: 'catalog.tag_items',
  version: '1.0.0',
  description: 'Tags catalog items; each tag object may appear once.',
  owner: 'team-catalog',
  input: { type: 'object', required: ['tags'], properties: { tags: { type: 'array', uniqueItems: true } } },
  annotations,
};

/** `$defs` each anyOf two references to the one before: 2^n evaluations of the first. */
function doublingChain(n: number): Record<string, unknown> {
  const defs: Record<string, unknown> = { d0: { type: 'string' } };
  for (let i = 1; i < n; i++) defs[`d${i}`] = { anyOf: [{ $ref: `#/$defs/d${i - 1}` }, { $ref: `#/$defs/d${i - 1}` }] };
  return { type: 'object', $defs: defs, properties: { a: { $ref: `#/$defs/d${n - 1}` } } };
}

beforeAll(async () => {
  t = await createTestTenant();
  await publishContract(t.tenant.id, tagsContract);
  const viewer = `viewer-${t.tenant.slug}@test.local`;
  await addMember({ tenantId: t.tenant.id, email: viewer, password: 'a-long-password', role: 'viewer' });
  viewerCookie = (await signIn(viewer, 'a-long-password')).cookie;
});

describe('contract schema checks through the routes', () => {
  it('validate/pre compares uniqueItems objects as JSON, own valueOf keys included', async () => {
    const res = await call(validatePre, {
      key: t.agentKey,
      body: { tool: 'catalog.tag_items', call_id: 'tags-valueof', arguments: { tags: [{ valueOf: 1 }, { valueOf: 1 }] } },
    });
    expect(res.status).toBe(200);
    expect(res.body.decision).toBe('deny');
    expect(res.body.errors[0]).toMatchObject({ code: 'AXAG_CONSTRAINT_VIOLATION', path: '$.tags' });
  });

  it('validate/pre finds the one duplicate among 60,000 objects', async () => {
    const tags = Array.from({ length: 60_000 }, (_, i) => ({ tag: `t${i}` }));
    const unique = await call(validatePre, {
      key: t.agentKey,
      body: { tool: 'catalog.tag_items', call_id: 'tags-unique', arguments: { tags } },
    });
    expect(unique.body).toMatchObject({ decision: 'allow', errors: [] });
    const repeated = await call(validatePre, {
      key: t.agentKey,
      body: { tool: 'catalog.tag_items', call_id: 'tags-repeated', arguments: { tags: [...tags, { tag: 't7' }] } },
    });
    expect(repeated.body.errors[0].message).toMatch(/items 7 and 60000 are equal/);
  });

  it("lint (a viewer's session) runs a test case against a schema of 40 doubling references to the end of its budget", async () => {
    const contract = {
      ...tagsContract,
      id: 'catalog.chain',
      input: doublingChain(40),
      tests: [{ name: 'a string passes', arguments: { a: 1 }, expect: { decision: 'deny', errors: ['AXAG_CONSTRAINT_VIOLATION'] } }],
    };
    const res = await call(lint, {
      headers: asSession(viewerCookie),
      body: { documents: [{ kind: 'contract', text: JSON.stringify(contract) }] },
    });
    expect(res.status).toBe(200);
    // The case expected a refusal and got one: the value could not be checked, which refuses it.
    expect(res.body.results[0]).toMatchObject({ valid: true, diagnostics: [] });
  });
});
