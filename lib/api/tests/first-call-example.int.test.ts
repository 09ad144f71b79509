import { beforeAll, describe, expect, it } from 'vitest';
import { FIRST_CALL_POST, FIRST_CALL_PRE, firstCallCommands } from '@/components/dashboard/first-call-example';
import { EXAMPLE_CONTRACTS } from '@/lib/contracts/examples';
import type { ToolContract } from '@/lib/contracts/contract-schema';
import { CONTRACT_TEMPLATES } from '@/lib/contracts/templates';
import { call } from '@/lib/testing/api-client';
import { createTestTenant, publishContract } from '@/lib/testing/fixtures';
import { validatePreHandler as validatePre, validatePostHandler as validatePost } from '@/lib/api/handlers/validate';

let t: Awaited<ReturnType<typeof createTestTenant>>;

// The demo tenant's contracts, published as the first start publishes them.
beforeAll(async () => {
  t = await createTestTenant();
  for (const contract of EXAMPLE_CONTRACTS) await publishContract(t.tenant.id, contract);
});

/** The body of the n-th curl command, read back from the text the dashboard shows. */
function shownBody(n: number): unknown {
  const bodies = [...firstCallCommands('https://toolgate.example.com/').matchAll(/-d '(.+)'$/gm)].map((m) => JSON.parse(m[1] as string));
  return bodies[n];
}

describe("the empty dashboard's first-call example", () => {
  it("shows the instance's own URL, not localhost:3000", () => {
    const text = firstCallCommands('https://toolgate.example.com/');
    expect(text).toContain('curl -s https://toolgate.example.com/api/v1/validate/pre ');
    expect(text).toContain('curl -s https://toolgate.example.com/api/v1/validate/post ');
    expect(text).not.toContain('localhost');
    expect(shownBody(0)).toEqual(FIRST_CALL_PRE);
    expect(shownBody(1)).toEqual(FIRST_CALL_POST);
  });

  it('is allowed by the demo contracts, before and after the tool ran', async () => {
    const pre = await call(validatePre, { key: t.agentKey, body: shownBody(0) });
    expect(pre.status).toBe(200);
    expect(pre.body).toMatchObject({ decision: 'allow', valid: true, errors: [] });
    const post = await call(validatePost, { key: t.agentKey, body: shownBody(1) });
    expect(post.status).toBe(200);
    expect(post.body).toMatchObject({ decision: 'allow', valid: true, errors: [] });
  });

  it('is still allowed when pasted again (a read-only lookup is no duplicate to refuse)', async () => {
    const again = await call(validatePre, { key: t.agentKey, body: shownBody(0) });
    expect(again.body).toMatchObject({ decision: 'allow', valid: true });
  });
});

// An operator's tenant (TOOLGATE_INIT_TENANT) starts empty; the empty dashboard tells them to
// publish orders.lookup from the studio's read-only query template, so the example must pass there.
describe("the first-call example in a tenant that published the studio's read-only query template", () => {
  it('is allowed before and after the tool ran', async () => {
    const own = await createTestTenant();
    const template = CONTRACT_TEMPLATES.find((candidate) => candidate.id === 'read-only-query');
    expect(template?.document.id).toBe(FIRST_CALL_PRE.tool);
    await publishContract(own.tenant.id, template?.document as unknown as ToolContract);
    const pre = await call(validatePre, { key: own.agentKey, body: shownBody(0) });
    expect(pre.body).toMatchObject({ decision: 'allow', valid: true, errors: [] });
    const post = await call(validatePost, { key: own.agentKey, body: shownBody(1) });
    expect(post.status).toBe(200);
    expect(post.body).toMatchObject({ decision: 'allow', valid: true, errors: [] });
  });
});
