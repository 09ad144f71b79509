import { beforeAll, describe, expect, it } from 'vitest';
import { db } from '@/lib/db';
import { lookupOrderContract } from '@/lib/contracts/examples';
import type { ToolContract } from '@/lib/contracts/contract-schema';
import { evidenceHash } from '@/lib/evidence/evidence-hash';
import { prevHashOf } from '@/lib/evidence/verification/walk-evidence-chain';
import { call, expectCodes } from '@/lib/testing/api-client';
import { createTestTenant, publishContract } from '@/lib/testing/fixtures';
import { validatePreHandler as validatePre } from '@/lib/api/handlers/validate';
import { updateTenantSettings } from '@/lib/tenants/tenant-settings';
import { hashedRecordOf, WITH_CONTRACT_HASH } from '@/lib/evidence/stored-record';
import { DUPLICATE_LOOKBACK } from '@/lib/validation/check-duplicate-call';
import { saveDocumentDraft } from '@/lib/documents/save-document-draft';
import { publishDocumentVersion } from '@/lib/documents/publish-document-version';

// AXAG_DUPLICATE_CALL finds earlier calls by the evidence's duplicateKey, which only allowed
// calls of a tool that is not idempotent carry (so plain records pay no index for it).

const appendNote: ToolContract = {
  ...lookupOrderContract,
  id: 'notes.append',
  description: 'Appends a note to an order. Not idempotent: two calls append two notes.',
  annotations: {
    ...lookupOrderContract.annotations,
    kind: 'mutation',
    side_effect_level: 'write',
    idempotent: false,
    idempotency_strategy: undefined,
  },
};

let t: Awaited<ReturnType<typeof createTestTenant>>;
let other: Awaited<ReturnType<typeof createTestTenant>>;

beforeAll(async () => {
  t = await createTestTenant();
  other = await createTestTenant();
  for (const tenant of [t, other]) {
    await publishContract(tenant.tenant.id, appendNote);
    await publishContract(tenant.tenant.id, lookupOrderContract);
  }
});

let n = 0;
const pre = (options: { tool?: string; orderId: string; who?: typeof t; idempotencyKey?: string; callId?: string }) =>
  call(validatePre, {
    key: (options.who ?? t).agentKey,
    body: {
      tool: options.tool ?? 'notes.append',
      call_id: options.callId ?? `dup-${++n}`,
      arguments: { tenant_id: 'acme', order_id: options.orderId },
      context: { tenant_id: 'acme' },
      ...(options.idempotencyKey ? { idempotency_key: options.idempotencyKey } : {}),
    },
  });

describe('duplicate calls', () => {
  it('the same arguments again warn and name the earlier call; other arguments, another tenant or an idempotent tool do not', async () => {
    const first = await pre({ orderId: 'ord_dup001' });
    expect(first.body).toMatchObject({ decision: 'allow', warnings: [] });
    const again = await pre({ orderId: 'ord_dup001' });
    expect(again.body.decision).toBe('allow');
    expectCodes(again.body.warnings, ['AXAG_DUPLICATE_CALL']);
    expect(again.body.warnings[0].details).toMatchObject({ previous_call_id: `dup-${n - 1}` });

    expect((await pre({ orderId: 'ord_dup002' })).body.warnings).toEqual([]);
    expect((await pre({ orderId: 'ord_dup001', who: other })).body.warnings).toEqual([]);
    await pre({ tool: 'orders.lookup', orderId: 'ord_dup003' });
    expect((await pre({ tool: 'orders.lookup', orderId: 'ord_dup003' })).body.warnings).toEqual([]);
  });

  it('with an idempotency key, the key decides: the same key with other arguments warns, another key does not', async () => {
    expect((await pre({ orderId: 'ord_key001', idempotencyKey: 'k-1' })).body.warnings).toEqual([]);
    expectCodes((await pre({ orderId: 'ord_key002', idempotencyKey: 'k-1' })).body.warnings, ['AXAG_DUPLICATE_CALL']);
    expect((await pre({ orderId: 'ord_key001', idempotencyKey: 'k-2' })).body.warnings).toEqual([]);
  });

  it('a refused call is not an earlier call, and the key is stored on allowed calls of a tool that is not idempotent only, covered by the hash', async () => {
    const refused = await pre({ orderId: 'BAD' });
    expect(refused.body.decision).toBe('deny');
    const refusedAgain = await pre({ orderId: 'BAD' });
    expect(refusedAgain.body.warnings).toEqual([]);
    const allowed = await pre({ orderId: 'ord_store01' });
    const read = await pre({ tool: 'orders.lookup', orderId: 'ord_store01' });

    const record = async (id: string) =>
      hashedRecordOf(await db().evidence.findUniqueOrThrow({ where: { id }, include: WITH_CONTRACT_HASH }), t.tenant.id);
    const stored = await record(allowed.body.evidence_id);
    expect(stored.duplicateKey).toMatch(/^[0-9a-f]{32}$/);
    expect((await record(refused.body.evidence_id)).duplicateKey).toBeNull();
    expect((await record(read.body.evidence_id)).duplicateKey).toBeNull();
    // The row stores its prevHash's prefix; the hash covers the whole (prevHashOf).
    const whole = { ...stored, prevHash: await prevHashOf(stored.tenantId, stored) };
    expect(evidenceHash(whole)).toBe(stored.hash);
    expect(evidenceHash({ ...whole, duplicateKey: '0'.repeat(32) })).not.toBe(stored.hash);
  });

  it('a call validated again under its own call_id is not its own duplicate, and however often it is repeated the check reads only the newest few', async () => {
    const previous = async (callId: string) => {
      const body = (await pre({ orderId: 'ord_repeat1', callId })).body;
      expect(body.decision).toBe('allow');
      return body.warnings.length ? body.warnings[0].details.previous_call_id : null;
    };
    expect(await previous('repeat-first')).toBeNull();
    expect(await previous('repeat-first')).toBeNull();
    // The same call again under another id names the newest earlier call with another id.
    for (let i = 0; i < DUPLICATE_LOOKBACK; i++) expect(await previous('repeat-again')).toBe('repeat-first');
    expect(await previous('repeat-third')).toBe('repeat-again');
    // The newest DUPLICATE_LOOKBACK records with the key are all "repeat-again" now: the check
    // stops there instead of reading every earlier one, so the older "repeat-third" is not named.
    for (let i = 0; i < DUPLICATE_LOOKBACK; i++) await previous('repeat-again');
    expect(await previous('repeat-again')).toBeNull();
    expect(await previous('repeat-fourth')).toBe('repeat-again');
  });

  it('an earlier call outside the tenant window is not a duplicate', async () => {
    await updateTenantSettings({ tenantId: other.tenant.id, patch: { duplicate_window_seconds: 1 }, actor: { kind: 'system' } });
    expect((await pre({ orderId: 'ord_window1', who: other })).body.warnings).toEqual([]);
    expectCodes((await pre({ orderId: 'ord_window1', who: other })).body.warnings, ['AXAG_DUPLICATE_CALL']);
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    expect((await pre({ orderId: 'ord_window1', who: other })).body.warnings).toEqual([]);
  });
});

describe('duplicate calls a policy transforms', () => {
  it('a repeated call that ran as transformed warns as a repeated allowed call does', async () => {
    const own = await createTestTenant();
    await publishContract(own.tenant.id, appendNote);
    const policy = {
      id: 'tagged',
      version: '1.0.0',
      rules: [{ id: 'tag', tools: ['notes.append'], decision: 'transform', set: { order_id: 'ord_tagged01' } }],
    };
    await saveDocumentDraft({ tenantId: own.tenant.id, kind: 'policy', document: policy });
    await publishDocumentVersion({ tenantId: own.tenant.id, kind: 'policy', id: policy.id, version: policy.version });
    const first = await pre({ orderId: 'ord_dup900', who: own });
    expect(first.body).toMatchObject({ decision: 'transform', warnings: [] });
    const again = await pre({ orderId: 'ord_dup900', who: own });
    expect(again.body.decision).toBe('transform');
    expectCodes(again.body.warnings, ['AXAG_DUPLICATE_CALL']);
    expect(again.body.warnings[0].details.previous_call_id).toBe(first.body.call_id);
  });
});
