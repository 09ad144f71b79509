// Free text kept in a text column (an approval's comment, a publish's change note, a document's
// description and owner) with a lone surrogate, which JSON carries as "\ud800": it was stored and
// read back as U+FFFD on PostgreSQL and as three of them on SQLite. Refused on both databases
// like a NUL, naming the field, and nothing is changed (lib/stored-text.ts).
import { beforeAll, describe, expect, it } from 'vitest';
import { EXAMPLE_CONTRACTS, lookupOrderContract } from '@/lib/contracts/examples';
import { db } from '@/lib/db';
import { call } from '@/lib/testing/api-client';
import { createTestTenant, publishContract } from '@/lib/testing/fixtures';
import { validatePreHandler as validatePre } from '@/lib/api/handlers/validate';
import { decideApprovalHandler as decide, getApprovalHandler as getApproval } from '@/lib/api/handlers/approvals';
import { saveContractDraftHandler as saveContract, publishContractVersionHandler as publishVersion } from '@/lib/api/handlers/contracts';
import { savePolicyDraftHandler as savePolicy } from '@/lib/api/handlers/policies';
import { createApiKey } from '@/lib/auth/api-keys';

let t: Awaited<ReturnType<typeof createTestTenant>>;
let authorKey: string;

beforeAll(async () => {
  t = await createTestTenant();
  for (const contract of EXAMPLE_CONTRACTS) await publishContract(t.tenant.id, contract);
  authorKey = (await createApiKey({ tenantId: t.tenant.id, name: 'author', scopes: ['author'] })).key;
});

const refused = (field: string) => `${field} cannot contain a lone surrogate (half of a UTF-16 pair)`;

describe('a lone surrogate in text a text column keeps', () => {
  it("in an approval's comment is refused, and the approval stays pending", async () => {
    const held = await call(validatePre, {
      key: t.agentKey,
      body: {
        tool: 'payments.refund',
        call_id: 'lone-surrogate-comment',
        arguments: { tenant_id: 'acme', payment_id: 'pay_abcdefgh12', reason: 'duplicate', amount_cents: 90_000 },
        context: { tenant_id: 'acme', user_id: 'u1', roles: ['support'], state: { payment_status: 'captured' } },
      },
    });
    expect(held.body.decision, JSON.stringify(held.body)).toBe('require_approval');
    const id = held.body.approval.id as string;

    const res = await call(decide, { key: t.adminKey, params: { id }, body: { decision: 'deny', comment: 'no\ud800way' } });
    expect(res.status).toBe(400);
    expect(res.body.error).toEqual({
      code: 'bad_request',
      message: `Invalid body: comment: ${refused('comment')}`,
      details: { issues: [{ path: 'comment', message: refused('comment') }] },
    });
    const after = await call(getApproval, { key: t.adminKey, params: { id } });
    expect(after.body).toMatchObject({ status: 'pending', comment: null });
  });

  it("in a publish's change_note is refused, and the version stays a draft", async () => {
    const draft = { ...lookupOrderContract, version: '7.0.0' };
    expect((await call(saveContract, { key: authorKey, body: draft })).status).toBe(201);
    const res = await call(publishVersion, {
      key: authorKey,
      params: { id: draft.id, version: draft.version },
      body: { change_note: 'fix \udc00' },
    });
    expect(res.status).toBe(400);
    expect(res.body.error).toEqual({
      code: 'bad_request',
      message: `Invalid body: change_note: ${refused('change_note')}`,
      details: { issues: [{ path: 'change_note', message: refused('change_note') }] },
    });
    const row = await db().contractVersion.findFirst({
      where: { tenantId: t.tenant.id, version: '7.0.0', contract: { name: draft.id } },
      select: { status: true, changeNote: true },
    });
    expect(row).toEqual({ status: 'draft', changeNote: null });
  });

  it("in a document's description or a contract's owner is refused, naming the field, and nothing is saved", async () => {
    const contract = await call(saveContract, {
      key: authorKey,
      body: { ...lookupOrderContract, id: 'lone.owner', version: '1.0.0', owner: 'team \ud83d' },
    });
    expect(contract.status).toBe(400);
    expect(contract.body.error).toEqual({
      code: 'bad_request',
      message: `${refused('`owner`')}.`,
      details: { tool: 'lone.owner', field: 'owner' },
    });
    expect(await db().contract.count({ where: { tenantId: t.tenant.id, name: 'lone.owner' } })).toBe(0);

    const policy = await call(savePolicy, {
      key: authorKey,
      body: { id: 'lone-description', version: '1.0.0', description: 'refunds \udfff only', capability: { tools: ['orders.*'] } },
    });
    expect(policy.status).toBe(400);
    expect(policy.body.error).toEqual({
      code: 'bad_request',
      message: `${refused('`description`')}.`,
      details: { id: 'lone-description', field: 'description' },
    });
    expect(await db().studioDocument.count({ where: { tenantId: t.tenant.id, name: 'lone-description' } })).toBe(0);
  });

  it('a well-formed pair (an emoji) is kept as sent', async () => {
    const res = await call(saveContract, {
      key: authorKey,
      body: { ...lookupOrderContract, id: 'emoji.owner', version: '1.0.0', owner: 'team 🦄' },
    });
    expect(res.status).toBe(201);
    const row = await db().contract.findFirst({ where: { tenantId: t.tenant.id, name: 'emoji.owner' }, select: { owner: true } });
    expect(row?.owner).toBe('team 🦄');
  });
});
