import { describe, expect, it } from 'vitest';
import { db } from '@/lib/db';
import { createTestTenant } from '@/lib/testing/fixtures';
import { appendRecords } from '@/lib/testing/evidence-tampering';
import { verifyEvidenceHandler as verify } from '@/lib/api/handlers/evidence';

// GET /api/v1/evidence/verify asked for while the same tenant's verify runs joins it
// (lib/evidence/verification/joined-verify.ts, docs/evidence.md#verification).

async function tenantWithChain(records: number) {
  const t = await createTestTenant();
  await appendRecords(t.tenant.id, records);
  return t;
}
const checkpoints = (tenantId: string) => db().evidenceCheckpoint.findMany({ where: { tenantId }, orderBy: { seq: 'asc' } });

/** The verify as a client sends it, with a signal that aborts when that client goes away. */
async function ask(key: string, options: { mode?: 'full'; signal?: AbortSignal } = {}) {
  const url = `http://localhost/api/v1/evidence/verify${options.mode ? `?mode=${options.mode}` : ''}`;
  const response = await verify(new Request(url, { headers: { authorization: `Bearer ${key}` }, signal: options.signal }), {
    params: Promise.resolve({}),
  });
  return { status: response.status, body: await response.json() };
}

describe('verifies asked for at once', () => {
  it('share one walk: the same answer and one checkpoint, where each used to walk and record its own', async () => {
    const t = await tenantWithChain(2_500);
    const answers = await Promise.all([ask(t.adminKey), ask(t.adminKey), ask(t.adminKey)]);
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200]);
    expect(answers[0]!.body).toMatchObject({
      valid: true,
      records: 2_500,
      covered: { checked: 2_500 },
      recordedCheckpoint: { seq: 2_500 },
    });
    expect(answers[1]!.body).toEqual(answers[0]!.body);
    expect(answers[2]!.body).toEqual(answers[0]!.body);
    expect(await checkpoints(t.tenant.id)).toHaveLength(1);

    // Done: the next one walks again (nothing new, from the checkpoint).
    expect((await ask(t.adminKey)).body).toMatchObject({ valid: true, covered: { checked: 0, checkpoint: { seq: 2_500 } } });
  });

  it('never across tenants, nor across modes', async () => {
    const [a, b] = await Promise.all([tenantWithChain(1_500), tenantWithChain(40)]);
    const [ofA, ofB, fullOfA] = await Promise.all([ask(a.adminKey), ask(b.adminKey), ask(a.adminKey, { mode: 'full' })]);
    expect(ofA.body).toMatchObject({ valid: true, records: 1_500, head: { seq: 1_500 } });
    expect(ofB.body).toMatchObject({ valid: true, records: 40, head: { seq: 40 } });
    expect(fullOfA.body).toMatchObject({ valid: true, records: 1_500, covered: { mode: 'full', checked: 1_500 } });
    expect(ofB.body.head.hash).not.toBe(ofA.body.head.hash);
  });

  it('one that goes away gets client_closed; the one still waiting gets the answer', async () => {
    const t = await tenantWithChain(2_500);
    const leaving = new AbortController();
    const left = ask(t.adminKey, { signal: leaving.signal });
    const staying = ask(t.adminKey);
    leaving.abort();
    expect((await left).body.error.code).toBe('client_closed');
    expect(await staying).toMatchObject({ status: 200, body: { valid: true, records: 2_500, recordedCheckpoint: { seq: 2_500 } } });
  });

  it('stops the walk when every one waiting has gone away, records nothing, and the next verify walks it all', async () => {
    const t = await tenantWithChain(2_500);
    const gone = [new AbortController(), new AbortController()];
    const both = gone.map((c) => ask(t.adminKey, { signal: c.signal }));
    for (const c of gone) c.abort();
    expect((await Promise.all(both)).map((a) => [a.status, a.body.error.code])).toEqual([
      [499, 'client_closed'],
      [499, 'client_closed'],
    ]);
    // The stopped walk is not joined: this one starts its own and finishes it.
    expect((await ask(t.adminKey)).body).toMatchObject({ valid: true, records: 2_500, covered: { checked: 2_500 } });
    expect(await checkpoints(t.tenant.id)).toHaveLength(1);
  });
});
