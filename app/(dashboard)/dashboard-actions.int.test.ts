import { beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { db } from '@/lib/db';
import { addMember } from '@/lib/tenants/add-member';
import { TENANT_COOKIE } from '@/lib/auth/session';
import { TENANT_FIELD } from '@/lib/auth/page-tenant';
import { LOADED_SETTINGS_FIELD } from '@/lib/tenants/settings-schema';
import { getTenantSettings, updateTenantSettings, type TenantSettings } from '@/lib/tenants/tenant-settings';
import { createTestTenant } from '@/lib/testing/fixtures';
import { ORIGIN, signIn } from '@/lib/api/tests/member-sessions';

// The dashboard's Server Actions, called as Next calls them, with the request's headers: a form
// acts in the tenant its page was rendered for (the hidden tenant_id field), whatever tenant the
// cookie names by then; the Settings form saves only what its person changed since it loaded.

let requestHeaders = new Headers();
vi.mock('next/headers', () => ({ headers: async () => requestHeaders }));
vi.mock('next/cache', () => ({ revalidatePath: () => undefined }));

const { saveSettingsAction } = await import('./settings/actions');
const { createKeyAction } = await import('./api-keys/actions');
const { inviteMemberAction } = await import('./members/actions');
const { requireMember } = await import('./require-member');

let a: Awaited<ReturnType<typeof createTestTenant>>;
let b: Awaited<ReturnType<typeof createTestTenant>>;
let stranger: Awaited<ReturnType<typeof createTestTenant>>;
let signedIn = '';

const IDLE = { status: 'idle' } as const;
const system = { kind: 'system' } as const;

/** The person's browser, its tenant cookie switched to `tenantId` in another tab. */
function cookieNaming(tenantId: string | null) {
  requestHeaders = new Headers({ cookie: tenantId ? `${signedIn}; ${TENANT_COOKIE}=${tenantId}` : signedIn, origin: ORIGIN });
}

async function settingsOf(tenantId: string): Promise<TenantSettings> {
  const view = await getTenantSettings({ tenantId });
  return {
    argument_retention_days: view.argument_retention_days,
    sensitive_paths: view.sensitive_paths,
    approval_ttl_seconds: view.approval_ttl_seconds,
    duplicate_window_seconds: view.duplicate_window_seconds,
  };
}

/** What the Settings form posts: every field as shown, and (unless left out) the page's tenant and loaded settings. */
function settingsForm(shown: TenantSettings, extra: { tenant?: string; loaded?: string | TenantSettings } = {}): FormData {
  const form = new FormData();
  if (extra.tenant !== undefined) form.set(TENANT_FIELD, extra.tenant);
  if (extra.loaded !== undefined)
    form.set(LOADED_SETTINGS_FIELD, typeof extra.loaded === 'string' ? extra.loaded : JSON.stringify(extra.loaded));
  form.set('retention', shown.argument_retention_days === null ? 'off' : 'keep');
  if (shown.argument_retention_days !== null) form.set('retention_days', String(shown.argument_retention_days));
  form.set('sensitive_paths', shown.sensitive_paths.join('\n'));
  form.set('approval_ttl_mode', shown.approval_ttl_seconds === null ? 'default' : 'custom');
  form.set('approval_ttl_seconds', String(shown.approval_ttl_seconds ?? 3600));
  form.set('duplicate_window_mode', shown.duplicate_window_seconds === null ? 'default' : 'custom');
  form.set('duplicate_window_seconds', String(shown.duplicate_window_seconds ?? 600));
  return form;
}

const START: TenantSettings = {
  argument_retention_days: 30,
  sensitive_paths: ['card.number'],
  approval_ttl_seconds: null,
  duplicate_window_seconds: null,
};

beforeAll(async () => {
  a = await createTestTenant({ slug: 'actions-a' });
  b = await createTestTenant({ slug: 'actions-b' });
  stranger = await createTestTenant({ slug: 'actions-stranger' });
  await addMember({ tenantId: a.tenant.id, email: 'two-tabs-actions@tenants.test', password: 'two-tabs-password', role: 'admin' });
  await addMember({ tenantId: b.tenant.id, email: 'two-tabs-actions@tenants.test', password: 'two-tabs-password', role: 'admin' });
  signedIn = (await signIn('two-tabs-actions@tenants.test', 'two-tabs-password')).cookie;
});

beforeEach(async () => {
  for (const t of [a, b, stranger])
    await updateTenantSettings({
      tenantId: t.tenant.id,
      patch: { ...START, sensitive_paths: [...START.sensitive_paths] },
      actor: system,
    });
});

describe('a dashboard form acts in the tenant its page was rendered for', () => {
  it('saves the settings of the page’s tenant (a) after the person switched to b in another tab; b is untouched', async () => {
    cookieNaming(b.tenant.id);
    const state = await saveSettingsAction(
      IDLE,
      settingsForm({ ...START, argument_retention_days: null, sensitive_paths: [] }, { tenant: a.tenant.id, loaded: START }),
    );
    expect(state).toMatchObject({ status: 'saved', loaded: { argument_retention_days: null, sensitive_paths: [] } });
    expect(await settingsOf(a.tenant.id)).toEqual({ ...START, argument_retention_days: null, sensitive_paths: [] });
    expect(await settingsOf(b.tenant.id)).toEqual(START);
  });

  it('makes an API key, and invites a person, in the page’s tenant', async () => {
    cookieNaming(b.tenant.id);
    const keyForm = new FormData();
    keyForm.set(TENANT_FIELD, a.tenant.id);
    keyForm.set('name', 'made on the keys page of a');
    keyForm.append('scopes', 'admin');
    expect(await createKeyAction(IDLE, keyForm)).toMatchObject({ status: 'created' });
    expect(await db().apiKey.findMany({ where: { name: 'made on the keys page of a' }, select: { tenantId: true } })).toEqual([
      { tenantId: a.tenant.id },
    ]);

    const inviteForm = new FormData();
    inviteForm.set(TENANT_FIELD, a.tenant.id);
    inviteForm.set('email', 'invited-on-a@tenants.test');
    inviteForm.set('role', 'admin');
    expect(await inviteMemberAction(IDLE, inviteForm)).toMatchObject({ status: 'invited' });
    expect(await db().invitation.findMany({ where: { email: 'invited-on-a@tenants.test' }, select: { tenantId: true } })).toEqual([
      { tenantId: a.tenant.id },
    ]);
  });

  it('renders the page again (after revalidatePath, in the same request) for the tenant the action acted in', async () => {
    cookieNaming(b.tenant.id);
    // A page render without an action: the cookie's tenant, as always.
    expect((await requireMember()).tenant.id).toBe(b.tenant.id);
    const form = settingsForm({ ...START, approval_ttl_seconds: 45 }, { tenant: a.tenant.id, loaded: START });
    expect(await saveSettingsAction(IDLE, form)).toMatchObject({ status: 'saved' });
    // The same request's headers: what Next renders the page with after the action.
    expect((await requireMember()).tenant.id).toBe(a.tenant.id);
    cookieNaming(b.tenant.id);
    expect((await requireMember()).tenant.id).toBe(b.tenant.id);
  });

  it('refuses, with a message to reload, a tenant the person is not a member of (any more), or garbage; nothing changes', async () => {
    cookieNaming(a.tenant.id);
    for (const tenant of [stranger.tenant.id, 'no-such-tenant', '', 'x'.repeat(10_000), "'; drop table tenant; --"]) {
      const state = await saveSettingsAction(IDLE, settingsForm({ ...START, sensitive_paths: [] }, { tenant, loaded: START }));
      expect(state).toEqual({
        status: 'error',
        message: expect.stringMatching(/^You are not a member of the tenant this page was opened for any more.*Reload the page\.$/),
      });
    }
    const keyForm = new FormData();
    keyForm.set(TENANT_FIELD, stranger.tenant.id);
    keyForm.set('name', 'must not exist');
    keyForm.append('scopes', 'admin');
    expect(await createKeyAction(IDLE, keyForm)).toMatchObject({ status: 'error', message: expect.stringContaining('Reload the page') });
    // A file where the id belongs: the same refusal, not a failure.
    const fileForm = settingsForm(START);
    fileForm.set(TENANT_FIELD, new Blob(['x']), 'tenant.txt');
    expect(await saveSettingsAction(IDLE, fileForm)).toMatchObject({ status: 'error' });
    for (const t of [a, b, stranger]) expect(await settingsOf(t.tenant.id)).toEqual(START);
    expect(await db().apiKey.count({ where: { name: 'must not exist' } })).toBe(0);
  });

  it('without the field (a form from before it, a hand-made post) acts where the cookie says, as before', async () => {
    cookieNaming(b.tenant.id);
    const state = await saveSettingsAction(IDLE, settingsForm({ ...START, approval_ttl_seconds: 120 }, { loaded: START }));
    expect(state).toMatchObject({ status: 'saved' });
    expect((await settingsOf(b.tenant.id)).approval_ttl_seconds).toBe(120);
    expect((await settingsOf(a.tenant.id)).approval_ttl_seconds).toBeNull();
  });
});

describe('the Settings form saves only what its person changed since it loaded', () => {
  it('refuses a setting someone else changed since the page loaded, naming it; their change is kept', async () => {
    cookieNaming(a.tenant.id);
    // Another admin adds a path after this page loaded.
    await updateTenantSettings({ tenantId: a.tenant.id, patch: { sensitive_paths: ['card.number', 'card.cvc'] }, actor: system });
    const state = await saveSettingsAction(
      IDLE,
      settingsForm({ ...START, sensitive_paths: ['card.number', 'iban'] }, { tenant: a.tenant.id, loaded: START }),
    );
    expect(state).toEqual({
      status: 'error',
      message: 'Sensitive argument paths was changed by someone else since you opened this page; reload to see it. Nothing was saved.',
    });
    expect((await settingsOf(a.tenant.id)).sensitive_paths).toEqual(['card.number', 'card.cvc']);
  });

  it('never writes a setting the person left alone: another admin’s newer value stays', async () => {
    cookieNaming(a.tenant.id);
    await updateTenantSettings({ tenantId: a.tenant.id, patch: { sensitive_paths: ['card.number', 'card.cvc'] }, actor: system });
    // The page still shows the paths as loaded; only retention is changed.
    const state = await saveSettingsAction(
      IDLE,
      settingsForm({ ...START, argument_retention_days: 7 }, { tenant: a.tenant.id, loaded: START }),
    );
    // What the form now shows: what it loaded, with what it saved.
    expect(state).toMatchObject({ status: 'saved', loaded: { ...START, argument_retention_days: 7 } });
    expect(await settingsOf(a.tenant.id)).toEqual({ ...START, argument_retention_days: 7, sensitive_paths: ['card.number', 'card.cvc'] });
  });

  it('saving with nothing changed writes nothing, even over newer values', async () => {
    cookieNaming(a.tenant.id);
    await updateTenantSettings({ tenantId: a.tenant.id, patch: { duplicate_window_seconds: 30 }, actor: system });
    const records = await db().evidence.count({ where: { tenant: { tenantId: a.tenant.id }, kind: 'settings' } });
    expect(await saveSettingsAction(IDLE, settingsForm(START, { tenant: a.tenant.id, loaded: START }))).toMatchObject({
      status: 'saved',
      loaded: START,
    });
    expect((await settingsOf(a.tenant.id)).duplicate_window_seconds).toBe(30);
    expect(await db().evidence.count({ where: { tenant: { tenantId: a.tenant.id }, kind: 'settings' } })).toBe(records);
  });

  it('with loaded values that are absent or unreadable, saves the whole form as before, never failing', async () => {
    cookieNaming(a.tenant.id);
    for (const loaded of [undefined, 'not json', '{"argument_retention_days": "x"}', '[]', 'null', 'x'.repeat(300_000)]) {
      const state = await saveSettingsAction(IDLE, settingsForm({ ...START, approval_ttl_seconds: 90 }, { tenant: a.tenant.id, loaded }));
      expect(state, String(loaded).slice(0, 40)).toMatchObject({ status: 'saved', loaded: { ...START, approval_ttl_seconds: 90 } });
      await updateTenantSettings({ tenantId: a.tenant.id, patch: { approval_ttl_seconds: null }, actor: system });
    }
  });
});
