import { beforeAll, describe, expect, it } from 'vitest';
import { db } from '@/lib/db';
import { bumpChange, pollChanges } from '@/lib/cache/change-feed';
import { lookupOrderContract, refundPaymentContract } from '@/lib/contracts/examples';
import { verifyEvidenceChain } from '@/lib/evidence/verify-evidence-chain';
import { addMember } from '@/lib/tenants/add-member';
import { call } from '@/lib/testing/api-client';
import { ORIGIN, signIn } from './member-sessions';
import { createTestTenant, publishContract } from '@/lib/testing/fixtures';
import { getSettingsHandler as getSettings, updateSettingsHandler as patchSettings } from '@/lib/api/handlers/settings';
import { validatePreHandler as validatePre, validatePostHandler as validatePost } from '@/lib/api/handlers/validate';

type Member = { userId: string; cookie: string };
let t: Awaited<ReturnType<typeof createTestTenant>>;
const members: Partial<Record<'viewer' | 'author' | 'approver' | 'admin', Member>> = {};

async function member(role: 'viewer' | 'author' | 'approver' | 'admin'): Promise<Member> {
  const email = `${role}-${t.tenant.slug}@test.local`;
  const { user } = await addMember({ tenantId: t.tenant.id, email, password: 'a-long-password', role });
  const signedIn = await signIn(email, 'a-long-password');
  expect(signedIn.status).toBe(200);
  return { userId: user.id, cookie: signedIn.cookie };
}

const session = (m: Member | undefined) => ({ cookie: (m as Member).cookie, origin: ORIGIN });
const patch = (body: unknown, auth: { key?: string; headers?: Record<string, string> } = { key: t.adminKey }) =>
  call(patchSettings, { method: 'PATCH', body, ...auth });

// Not idempotent, no approval or confirmation: repeated calls are duplicates, and allowed.
const noteContract = {
  ...lookupOrderContract,
  id: 'notes.add',
  annotations: { ...lookupOrderContract.annotations, kind: 'mutation', side_effect_level: 'write', idempotent: false },
} as typeof lookupOrderContract;
// Needs approval and names no expiry of its own: the tenant's default applies.
const refundWithoutTtl = {
  ...refundPaymentContract,
  id: 'payments.refund_default_ttl',
  annotations: { ...refundPaymentContract.annotations, approval_ttl_seconds: undefined },
} as typeof refundPaymentContract;

beforeAll(async () => {
  t = await createTestTenant();
  for (const role of ['viewer', 'author', 'approver', 'admin'] as const) members[role] = await member(role);
  for (const contract of [lookupOrderContract, noteContract, refundWithoutTtl]) await publishContract(t.tenant.id, contract);
});

describe('GET and PATCH /api/v1/settings', () => {
  it('reads the defaults: retention off, no sensitive paths, the instance defaults for expiry and duplicates', async () => {
    const res = await call(getSettings, { key: t.adminKey });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      argument_retention_days: null,
      sensitive_paths: [],
      approval_ttl_seconds: null,
      duplicate_window_seconds: null,
      instance_defaults: { approval_ttl_seconds: 3600, duplicate_window_seconds: 600 },
    });
  });

  it('changes any of the settings and answers with all of them', async () => {
    const res = await patch({ argument_retention_days: 14, sensitive_paths: ['card.holder_name', ' order_id ', 'card.holder_name'] });
    expect(res.status).toBe(200);
    // Trimmed, duplicates dropped, order kept.
    expect(res.body).toMatchObject({
      argument_retention_days: 14,
      sensitive_paths: ['card.holder_name', 'order_id'],
      approval_ttl_seconds: null,
      duplicate_window_seconds: null,
    });
    expect(await db().tenant.findUniqueOrThrow({ where: { id: t.tenant.id } })).toMatchObject({
      storeRawArguments: true,
      retentionDays: 14,
      sensitivePaths: '["card.holder_name","order_id"]',
    });

    const off = await patch({ argument_retention_days: null, sensitive_paths: [] });
    expect(off.body).toMatchObject({ argument_retention_days: null, sensitive_paths: [] });
    // Off keeps the last number of days for when it is turned on again.
    expect(await db().tenant.findUniqueOrThrow({ where: { id: t.tenant.id } })).toMatchObject({
      storeRawArguments: false,
      retentionDays: 14,
    });
  });

  it.each([
    ['retention of 0 days', { argument_retention_days: 0 }, 'argument_retention_days'],
    ['retention past 3650 days', { argument_retention_days: 3651 }, 'argument_retention_days'],
    ['fractional days', { argument_retention_days: 1.5 }, 'argument_retention_days'],
    ['days as text', { argument_retention_days: '30' }, 'argument_retention_days'],
    ['a __proto__ segment', { sensitive_paths: ['card.__proto__'] }, 'sensitive_paths.0'],
    ['a constructor segment', { sensitive_paths: ['constructor'] }, 'sensitive_paths.0'],
    ['a prototype segment', { sensitive_paths: ['a.prototype.b'] }, 'sensitive_paths.0'],
    ['an empty segment', { sensitive_paths: ['a..b'] }, 'sensitive_paths.0'],
    ['a path with spaces inside', { sensitive_paths: ['ok', 'card holder'] }, 'sensitive_paths.1'],
    ['a bracketed path', { sensitive_paths: ['items[0].sku'] }, 'sensitive_paths.0'],
    ['a path over 256 characters', { sensitive_paths: [`${'a'.repeat(60)}.`.repeat(5)] }, 'sensitive_paths.0'],
    ['101 paths', { sensitive_paths: Array.from({ length: 101 }, (_, i) => `p${i}`) }, 'sensitive_paths'],
    ['an approval expiry under 10 s', { approval_ttl_seconds: 9 }, 'approval_ttl_seconds'],
    ['an approval expiry over 30 days', { approval_ttl_seconds: 30 * 24 * 3600 + 1 }, 'approval_ttl_seconds'],
    ['a duplicate window of 0 s', { duplicate_window_seconds: 0 }, 'duplicate_window_seconds'],
    ['a duplicate window over 7 days', { duplicate_window_seconds: 7 * 24 * 3600 + 1 }, 'duplicate_window_seconds'],
    ['an unknown setting', { store_raw_arguments: true }, '(root)'],
    ['nothing to change', {}, '(root)'],
  ])('refuses %s with 400 bad_request naming the field, and changes nothing', async (_name, body, path) => {
    const before = await db().tenant.findUniqueOrThrow({ where: { id: t.tenant.id } });
    const res = await patch(body);
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('bad_request');
    expect(res.body.error.details.issues.map((i: { path: string }) => i.path)).toContain(path);
    expect(await db().tenant.findUniqueOrThrow({ where: { id: t.tenant.id } })).toEqual(before);
  });

  it('accepts the limits themselves', async () => {
    const res = await patch({
      argument_retention_days: 3650,
      sensitive_paths: Array.from({ length: 100 }, (_, i) => `a.b-${i}._c`),
      approval_ttl_seconds: 10,
      duplicate_window_seconds: 7 * 24 * 3600,
    });
    expect(res.status).toBe(200);
    expect(res.body.sensitive_paths).toHaveLength(100);
    expect(
      (await patch({ argument_retention_days: 1, sensitive_paths: [], approval_ttl_seconds: 30 * 24 * 3600, duplicate_window_seconds: 1 }))
        .status,
    ).toBe(200);
    expect((await patch({ argument_retention_days: null, approval_ttl_seconds: null, duplicate_window_seconds: null })).status).toBe(200);
  });

  it('lets admins change settings, and nobody else', async () => {
    for (const role of ['viewer', 'author', 'approver'] as const) {
      const res = await patch({ duplicate_window_seconds: 60 }, { headers: session(members[role]) });
      expect(res.status, role).toBe(403);
      expect(res.body.error.code).toBe('forbidden');
    }
    const agent = await patch({ duplicate_window_seconds: 60 }, { key: t.agentKey });
    expect(agent.status).toBe(403);
    expect(agent.body.error.details.required_scope).toBe('admin');
    expect((await call(getSettings, { key: t.agentKey })).status).toBe(403);
    expect((await call(patchSettings, { method: 'PATCH', body: { duplicate_window_seconds: 60 } })).status).toBe(401);
    expect((await db().tenant.findUniqueOrThrow({ where: { id: t.tenant.id } })).duplicateWindowSeconds).toBeNull();

    const admin = await patch({ duplicate_window_seconds: 60 }, { headers: session(members.admin) });
    expect(admin.status).toBe(200);
    expect(admin.body.duplicate_window_seconds).toBe(60);
    // Every member may read them (the Settings page shows them read-only).
    const read = await call(getSettings, { headers: session(members.viewer) });
    expect(read.status).toBe(200);
    expect(read.body.duplicate_window_seconds).toBe(60);
    await patch({ duplicate_window_seconds: null });
  });

  it('records every change as a settings evidence record, with who and the values before and after', async () => {
    const count = () => db().evidence.count({ where: { tenant: { tenantId: t.tenant.id }, kind: 'settings' } });
    const start = await count();
    await patch({ approval_ttl_seconds: 120 }, { headers: session(members.admin) });
    await patch({ approval_ttl_seconds: 300 });
    // The same values again change nothing and record nothing.
    await patch({ approval_ttl_seconds: 300 });
    expect(await count()).toBe(start + 2);
    const records = await db().evidence.findMany({
      where: { tenant: { tenantId: t.tenant.id }, kind: 'settings' },
      orderBy: { seq: 'desc' },
      take: 2,
    });
    const [byKey, bySession] = records as [(typeof records)[number], (typeof records)[number]];
    expect(bySession).toMatchObject({
      tool: 'toolgate.settings',
      decision: 'settings_changed',
      actorUserId: members.admin?.userId,
      apiKeyId: null,
    });
    expect(byKey).toMatchObject({ actorUserId: null, apiKeyId: expect.any(String) });
    expect(JSON.parse(byKey.details ?? '{}')).toEqual({
      changed: ['approval_ttl_seconds'],
      before: { argument_retention_days: null, sensitive_paths: [], approval_ttl_seconds: 120, duplicate_window_seconds: null },
      after: { argument_retention_days: null, sensitive_paths: [], approval_ttl_seconds: 300, duplicate_window_seconds: null },
    });
    expect(await verifyEvidenceChain({ tenantId: t.tenant.id })).toMatchObject({ valid: true });
    await patch({ approval_ttl_seconds: null });
  });
});

describe('a change applies at the next call of a key already in use', () => {
  const lookup = (callId: string) =>
    call(validatePre, {
      key: t.agentKey,
      body: {
        tool: 'orders.lookup',
        call_id: callId,
        arguments: { tenant_id: 'acme', order_id: 'ord_abc123' },
        context: { tenant_id: 'acme', user_id: 'u_1', state: { tier: 'gold' } },
      },
    });

  it('keeps arguments and payloads once retention is on, with the tenant-wide sensitive paths redacted', async () => {
    const before = await lookup('ret-1');
    expect(before.body.decision).toBe('allow');
    expect(await db().evidence.findUniqueOrThrow({ where: { id: before.body.evidence_id } })).toMatchObject({
      arguments: null,
      payload: null,
      payloadHash: null,
    });

    expect((await patch({ argument_retention_days: 30, sensitive_paths: ['order_id'] })).status).toBe(200);
    const after = await lookup('ret-2');
    const row = await db().evidence.findUniqueOrThrow({ where: { id: after.body.evidence_id } });
    expect(JSON.parse(row.arguments ?? 'null')).toEqual({ tenant_id: 'acme', order_id: '[REDACTED]' });
    expect(JSON.parse(row.payload ?? 'null')).toEqual({ context: { tenant_id: 'acme', user_id: 'u_1', state: { tier: 'gold' } } });
    expect(row.payloadHash).toMatch(/^[0-9a-f]{64}$/);

    const post = await call(validatePost, {
      key: t.agentKey,
      body: {
        tool: 'orders.lookup',
        call_id: 'ret-2',
        arguments: { tenant_id: 'acme', order_id: 'ord_abc123' },
        result: { order_id: 'ord_abc123', status: 'shipped' },
      },
    });
    expect(post.body.decision).toBe('allow');
    const postRow = await db().evidence.findUniqueOrThrow({ where: { id: post.body.evidence_id } });
    // The result is redacted like the arguments: the same path is hidden there too.
    expect(JSON.parse(postRow.payload ?? 'null')).toEqual({ result: { order_id: '[REDACTED]', status: 'shipped' } });
    expect(postRow.arguments).not.toContain('ord_abc123');

    await patch({ argument_retention_days: null, sensitive_paths: [] });
    const off = await lookup('ret-3');
    expect(await db().evidence.findUniqueOrThrow({ where: { id: off.body.evidence_id } })).toMatchObject({
      arguments: null,
      payload: null,
    });
    expect(await verifyEvidenceChain({ tenantId: t.tenant.id })).toMatchObject({ valid: true });
  });

  it('applies a change another instance made after this instance polls the change counters', async () => {
    await lookup('poll-1');
    // Another instance: the row and the counter change in one transaction, nothing is notified here.
    await db().$transaction(async (tx) => {
      await tx.tenant.update({ where: { id: t.tenant.id }, data: { storeRawArguments: true, sensitivePaths: '[]' } });
      await bumpChange(tx, 'tenant_settings');
    });
    await pollChanges();
    const row = await db().evidence.findUniqueOrThrow({ where: { id: (await lookup('poll-2')).body.evidence_id } });
    expect(JSON.parse(row.arguments ?? 'null')).toEqual({ tenant_id: 'acme', order_id: 'ord_abc123' });
    await patch({ argument_retention_days: null });
  });

  it('applies the default approval expiry to contracts that name none', async () => {
    const refund = (amount: number) =>
      call(validatePre, {
        key: t.agentKey,
        body: {
          tool: 'payments.refund_default_ttl',
          call_id: `ttl-${amount}`,
          arguments: { tenant_id: 'acme', payment_id: 'pay_abcdefgh12', amount_cents: amount, reason: 'duplicate' },
          context: { tenant_id: 'acme', roles: ['support'], state: { payment_status: 'captured' } },
        },
      });
    const expiresIn = (answer: Awaited<ReturnType<typeof refund>>) => (Date.parse(answer.body.approval.expires_at) - Date.now()) / 1000;
    const instanceDefault = await refund(101);
    expect(instanceDefault.body.decision).toBe('require_approval');
    expect(expiresIn(instanceDefault)).toBeGreaterThan(3500);

    await patch({ approval_ttl_seconds: 120 });
    const tenantDefault = await refund(102);
    expect(expiresIn(tenantDefault)).toBeGreaterThan(100);
    expect(expiresIn(tenantDefault)).toBeLessThanOrEqual(120);
    await patch({ approval_ttl_seconds: null });
  });

  it('applies the duplicate window', async () => {
    const note = (callId: string) =>
      call(validatePre, {
        key: t.agentKey,
        body: {
          tool: 'notes.add',
          call_id: callId,
          arguments: { tenant_id: 'acme', order_id: 'ord_dup123' },
          context: { tenant_id: 'acme' },
        },
      });
    const duplicateWarnings = (answer: Awaited<ReturnType<typeof note>>) =>
      answer.body.warnings.filter((w: { code: string }) => w.code === 'AXAG_DUPLICATE_CALL').length;
    await patch({ duplicate_window_seconds: 1 });
    expect((await note('dup-1')).body.decision).toBe('allow');
    await new Promise((resolve) => setTimeout(resolve, 1200));
    // Outside a 1 s window: not a duplicate.
    expect(duplicateWarnings(await note('dup-2'))).toBe(0);
    await patch({ duplicate_window_seconds: 600 });
    expect(duplicateWarnings(await note('dup-3'))).toBe(1);
    await patch({ duplicate_window_seconds: null });
  });
});
