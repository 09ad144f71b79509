// A record that kept nothing (retention off) has no payload digest; a payload written into it
// afterwards is forged, not kept, and a full verify says so (it passed, and the trace showed
// the forged context and result as kept).
import { beforeAll, describe, expect, it } from 'vitest';
import { db } from '@/lib/db';
import { lookupOrderContract } from '@/lib/contracts/examples';
import { call } from '@/lib/testing/api-client';
import { createTestTenant, publishContract } from '@/lib/testing/fixtures';
import { validatePreHandler as validatePre } from '@/lib/api/handlers/validate';
import { verifyEvidenceHandler as verify } from '@/lib/api/handlers/evidence';

let t: Awaited<ReturnType<typeof createTestTenant>>;
beforeAll(async () => {
  t = await createTestTenant();
  await publishContract(t.tenant.id, lookupOrderContract);
});

describe('a payload without its digest', () => {
  it('is payload_mismatch in a full verify, where the record is', async () => {
    const answer = await call(validatePre, {
      key: t.agentKey,
      body: {
        tool: 'orders.lookup',
        call_id: 'forged',
        arguments: { tenant_id: 'acme', order_id: 'ord_abc123' },
        context: { tenant_id: 'acme' },
      },
    });
    const row = await db().evidence.findUniqueOrThrow({ where: { id: answer.body.evidence_id } });
    expect(row).toMatchObject({ payloadHash: null, payload: null, arguments: null });
    const full = async () => (await call(verify, { key: t.adminKey, path: '/api/v1/evidence/verify?mode=full' })).body;
    expect(await full()).toMatchObject({ valid: true });

    await db().evidence.update({ where: { id: row.id }, data: { payload: JSON.stringify({ context: { user_id: 'FORGED' } }) } });
    expect(await full()).toMatchObject({ valid: false, firstBroken: { seq: row.seq, id: row.id, reason: 'payload_mismatch' } });
    await db().evidence.update({ where: { id: row.id }, data: { payload: null } });
    expect(await full()).toMatchObject({ valid: true });
  });
});
