import { beforeAll, describe, expect, it } from 'vitest';
import { db } from '@/lib/db';
import { AppError } from '@/lib/errors';
import { authenticateApiKey, createApiKey } from '@/lib/auth/api-keys';
import { createApiKeyHandler as createKey, listApiKeysHandler as listKeys } from '@/lib/api/handlers/api-keys';
import { validatePreHandler as validatePre } from '@/lib/api/handlers/validate';
import { call } from '@/lib/testing/api-client';
import { createTestTenant } from '@/lib/testing/fixtures';

// A key can be made to stop working on a date: from then on every request with it is refused
// with its own reason, on the first lookup and from the key cache alike.

let t: Awaited<ReturnType<typeof createTestTenant>>;
const DAY = 86_400_000;

beforeAll(async () => {
  t = await createTestTenant({ slug: 'key-expiry' });
});

const someCall = { tool: 'orders.lookup', call_id: 'expiry-1', arguments: {}, context: {} };

describe('API key expiry', () => {
  it('is set from expires_in_days, listed, and a key without it never expires', async () => {
    const before = Date.now();
    const res = await call(createKey, { key: t.adminKey, body: { name: 'expiring agent', scopes: ['validate'], expires_in_days: 30 } });
    expect(res.status).toBe(201);
    const expiresAt = Date.parse(res.body.api_key.expiresAt);
    expect(expiresAt).toBeGreaterThanOrEqual(before + 30 * DAY);
    expect(expiresAt).toBeLessThanOrEqual(Date.now() + 30 * DAY);
    expect((await call(validatePre, { key: res.body.key, body: someCall })).status).toBe(200);

    const forever = await call(createKey, { key: t.adminKey, body: { name: 'lasting agent', scopes: ['validate'] } });
    expect(forever.body.api_key.expiresAt).toBeNull();
    const listed = await call(listKeys, { key: t.adminKey });
    const byName = new Map((listed.body.api_keys as { name: string; expiresAt: string | null }[]).map((k) => [k.name, k.expiresAt]));
    expect(byName.get('expiring agent')).toBe(res.body.api_key.expiresAt);
    expect(byName.get('lasting agent')).toBeNull();
  });

  it('refuses an expired key with 401 key_expired and when it expired', async () => {
    const { key } = await createApiKey({
      tenantId: t.tenant.id,
      name: 'old agent',
      scopes: ['validate'],
      expiresInDays: 30,
      now: new Date(Date.now() - 31 * DAY),
    });
    const res = await call(validatePre, { key, body: someCall });
    expect(res.status).toBe(401);
    expect(res.body.error.code).toBe('unauthorized');
    expect(res.body.error.details.reason).toBe('key_expired');
    const row = await db().apiKey.findFirstOrThrow({ where: { tenantId: t.tenant.id, name: 'old agent' } });
    expect(res.body.error.details.expired_at).toBe(row.expiresAt?.toISOString());
    expect(res.body.error.message).toContain('Ask an admin of its tenant for a new key');
    expect(res.headers.get('www-authenticate')).toMatch(/^Bearer error="invalid_token"/);
    // Nothing was recorded for the refused call.
    expect(await db().evidence.count({ where: { apiKeyId: row.id } })).toBe(0);
  });

  it('stops a key that is in the key cache at the moment it expires', async () => {
    const { key, apiKey } = await createApiKey({ tenantId: t.tenant.id, name: 'cached agent', scopes: ['validate'], expiresInDays: 1 });
    const expiresAt = (apiKey.expiresAt as Date).getTime();
    expect(await authenticateApiKey(key)).toMatchObject({ id: apiKey.id });
    expect(await authenticateApiKey(key, expiresAt - 1)).toMatchObject({ id: apiKey.id });
    const refused = await authenticateApiKey(key, expiresAt).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(AppError);
    expect(refused).toMatchObject({ code: 'unauthorized', details: { reason: 'key_expired' } });
  });

  it('refuses a lifetime that is not 1 to 3650 whole days', async () => {
    for (const expires_in_days of [0, -1, 3651, 1.5, '30', null]) {
      const res = await call(createKey, { key: t.adminKey, body: { name: 'bad lifetime', scopes: ['validate'], expires_in_days } });
      expect(res.status, JSON.stringify(expires_in_days)).toBe(400);
    }
    await expect(createApiKey({ tenantId: t.tenant.id, name: 'x', scopes: ['validate'], expiresInDays: 0 })).rejects.toMatchObject({
      code: 'bad_request',
    });
    expect(await db().apiKey.count({ where: { tenantId: t.tenant.id, name: { in: ['bad lifetime', 'x'] } } })).toBe(0);
  });
});
