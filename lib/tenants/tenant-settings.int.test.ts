import { beforeEach, describe, expect, it } from 'vitest';
import { db } from '@/lib/db';
import { AppError } from '@/lib/errors';
import { createTestTenant } from '@/lib/testing/fixtures';
import { getTenantSettings, updateTenantSettings, type TenantSettings } from './tenant-settings';

// A settings page sends only what its person changed, with the values it loaded (`expected`):
// a change someone else made since is refused, never undone unseen, and a field left alone is
// never written.

let tenantId = '';
const system = { kind: 'system' } as const;
const settingsRecords = () => db().evidence.count({ where: { tenant: { tenantId }, kind: 'settings' } });
const read = async (): Promise<TenantSettings> => {
  const view = await getTenantSettings({ tenantId });
  return {
    argument_retention_days: view.argument_retention_days,
    sensitive_paths: view.sensitive_paths,
    approval_ttl_seconds: view.approval_ttl_seconds,
    duplicate_window_seconds: view.duplicate_window_seconds,
  };
};

beforeEach(async () => {
  tenantId = (await createTestTenant()).tenant.id;
  await updateTenantSettings({
    tenantId,
    patch: { argument_retention_days: 30, sensitive_paths: ['card.number'], approval_ttl_seconds: 600 },
    actor: system,
  });
});

describe('updateTenantSettings with the values the page loaded', () => {
  it('refuses a field someone else changed since (conflict, changed_since_loaded) and writes nothing', async () => {
    const loaded = await read();
    // Another admin adds a path after the page loaded.
    await updateTenantSettings({ tenantId, patch: { sensitive_paths: ['card.number', 'card.cvc'] }, actor: system });
    const records = await settingsRecords();

    const attempt = updateTenantSettings({
      tenantId,
      // The stale page removed card.number and turned retention off.
      patch: { sensitive_paths: [], argument_retention_days: null },
      expected: { sensitive_paths: loaded.sensitive_paths, argument_retention_days: loaded.argument_retention_days },
      actor: system,
    });
    await expect(attempt).rejects.toBeInstanceOf(AppError);
    await expect(attempt).rejects.toMatchObject({
      code: 'conflict',
      details: { reason: 'changed_since_loaded', fields: ['sensitive_paths'] },
    });
    // Nothing written: not the stale field, nor retention, which alone would have been fine.
    expect(await read()).toEqual({ ...loaded, sensitive_paths: ['card.number', 'card.cvc'] });
    expect(await settingsRecords()).toBe(records);
  });

  it('writes only the fields in the patch; another admin’s newer value of a field left alone stays', async () => {
    const loaded = await read();
    await updateTenantSettings({ tenantId, patch: { sensitive_paths: ['card.number', 'card.cvc'] }, actor: system });

    const saved = await updateTenantSettings({
      tenantId,
      patch: { approval_ttl_seconds: 120 },
      expected: { approval_ttl_seconds: loaded.approval_ttl_seconds },
      actor: system,
    });
    expect(saved).toMatchObject({ approval_ttl_seconds: 120, sensitive_paths: ['card.number', 'card.cvc'], argument_retention_days: 30 });
    expect(await read()).toEqual({ ...loaded, approval_ttl_seconds: 120, sensitive_paths: ['card.number', 'card.cvc'] });
    const last = await db().evidence.findFirstOrThrow({ where: { tenant: { tenantId }, kind: 'settings' }, orderBy: { seq: 'desc' } });
    expect(JSON.parse(last.details ?? '{}')).toMatchObject({ changed: ['approval_ttl_seconds'] });
  });

  it('does not refuse for an expected value of a field the patch does not change', async () => {
    await updateTenantSettings({ tenantId, patch: { duplicate_window_seconds: 5 }, actor: system });
    const saved = await updateTenantSettings({
      tenantId,
      patch: { argument_retention_days: 7 },
      // Stale, but not being changed: no conflict, and left as the other admin set it.
      expected: { argument_retention_days: 30, duplicate_window_seconds: null },
      actor: system,
    });
    expect(saved).toMatchObject({ argument_retention_days: 7, duplicate_window_seconds: 5 });
  });

  it('does not refuse when someone else already made the same change', async () => {
    const loaded = await read();
    await updateTenantSettings({ tenantId, patch: { approval_ttl_seconds: 900 }, actor: system });
    const records = await settingsRecords();
    const saved = await updateTenantSettings({
      tenantId,
      patch: { approval_ttl_seconds: 900 },
      expected: { approval_ttl_seconds: loaded.approval_ttl_seconds },
      actor: system,
    });
    expect(saved.approval_ttl_seconds).toBe(900);
    expect(await settingsRecords()).toBe(records);
  });

  it('compares paths in order, as they are kept, and passes when nothing changed since loading', async () => {
    const loaded = await read();
    const saved = await updateTenantSettings({
      tenantId,
      patch: { sensitive_paths: ['card.number', 'iban'] },
      expected: { sensitive_paths: loaded.sensitive_paths },
      actor: system,
    });
    expect(saved.sensitive_paths).toEqual(['card.number', 'iban']);
    await expect(
      updateTenantSettings({
        tenantId,
        patch: { sensitive_paths: ['x'] },
        expected: { sensitive_paths: ['iban', 'card.number'] },
        actor: system,
      }),
    ).rejects.toMatchObject({ code: 'conflict' });
  });
});
