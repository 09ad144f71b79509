import { beforeAll, describe, expect, it } from 'vitest';
import { lookupOrderContract } from '@/lib/contracts/examples';
import { db } from '@/lib/db';
import { tenantEvidence } from '@/lib/evidence/tenant-key';
import { closeEvidenceWriter } from '@/lib/evidence/record-evidence';
import { call } from '@/lib/testing/api-client';
import { createTestTenant, publishContract } from '@/lib/testing/fixtures';
import { validatePreHandler as validatePre } from '@/lib/api/handlers/validate';
import { overviewHandler as overview } from '@/lib/api/handlers/overview';
import { inviteMemberHandler as invite } from '@/lib/api/handlers/members';
import { updateSettingsHandler as patchSettings } from '@/lib/api/handlers/settings';

// A tenant's chain also holds administrative records (members invited, settings changed, the
// retention purge). They are not calls: the overview said "Last recorded call: <the time an
// admin invited someone>" on a tenant no agent had ever called, and hid its "make a first call"
// help; on an idle tenant each hourly purge record moved "Last recorded call" forward.

let t: Awaited<ReturnType<typeof createTestTenant>>;

beforeAll(async () => {
  t = await createTestTenant({ slug: 'overview-admin-records' });
  expect((await call(invite, { key: t.adminKey, body: { email: 'first-colleague@overview.test', role: 'viewer' } })).status).toBe(201);
  expect((await call(patchSettings, { method: 'PATCH', key: t.adminKey, body: { argument_retention_days: 7 } })).status).toBe(200);
  await closeEvidenceWriter();
});

describe('the overview of a tenant whose chain holds administrative records', () => {
  it('reports no call yet while only people and settings changed', async () => {
    const kinds = (await db().evidence.findMany({ where: await tenantEvidence(t.tenant.id), select: { kind: true } })).map((r) => r.kind);
    expect(kinds.sort()).toEqual(['membership', 'settings']);
    const res = await call(overview, { key: t.adminKey });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ calls: 0, refusals: 0, last_record_at: null });
  });

  it('reports the last call, not a later administrative record', async () => {
    await publishContract(t.tenant.id, lookupOrderContract);
    const made = await call(validatePre, {
      key: t.agentKey,
      body: {
        tool: 'orders.lookup',
        call_id: 'first-call',
        arguments: { tenant_id: 'acme', order_id: 'ord_a1b2c3' },
        context: { tenant_id: 'acme' },
      },
    });
    expect(made.status).toBe(200);
    await closeEvidenceWriter();
    const callRecord = await db().evidence.findFirstOrThrow({ where: { ...(await tenantEvidence(t.tenant.id)), kind: 'pre' } });
    expect((await call(patchSettings, { method: 'PATCH', key: t.adminKey, body: { argument_retention_days: 8 } })).status).toBe(200);
    await closeEvidenceWriter();
    const res = await call(overview, { key: t.adminKey });
    expect(res.body.calls).toBe(1);
    expect(res.body.last_record_at).toBe(callRecord.createdAt.toISOString());
  });
});
