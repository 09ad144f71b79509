import { expect, test, type APIRequestContext } from '@playwright/test';
import { seedSecondTenant } from './seed';
import { signIn } from './sign-in';
import { E2E_ADMIN, E2E_INIT_API_KEY } from './test-env';

// What a page left open acts on. It keeps acting in the tenant it was opened for when its person
// switches tenants in another tab (docs/members.md#several-tenants-per-person), and its Settings
// form saves only what was changed on it, refusing a setting someone else changed since it
// loaded (docs/settings.md).

const E2E_KEY = { authorization: `Bearer ${E2E_INIT_API_KEY}` };

interface Settings {
  argument_retention_days: number | null;
  sensitive_paths: string[];
  approval_ttl_seconds: number | null;
  duplicate_window_seconds: number | null;
}

async function settingsWith(request: APIRequestContext, authorization: string): Promise<Settings> {
  const response = await request.get('/api/v1/settings', { headers: { authorization } });
  expect(response.status()).toBe(200);
  const body = (await response.json()) as Settings;
  return {
    argument_retention_days: body.argument_retention_days,
    sensitive_paths: body.sensitive_paths,
    approval_ttl_seconds: body.approval_ttl_seconds,
    duplicate_window_seconds: body.duplicate_window_seconds,
  };
}

test('a Settings page opened for one tenant saves there after its person switched to another in a second tab', async ({
  page,
  context,
  baseURL,
}) => {
  const other = await seedSecondTenant({ slug: 'open-pages-other', name: 'Other tenant', email: E2E_ADMIN.email, role: 'admin' });
  const otherKey = `Bearer ${other.adminKey}`;
  await signIn(page.request, baseURL, E2E_ADMIN);
  const otherBefore = await settingsWith(page.request, otherKey);

  await page.goto('/settings');
  await expect(page.getByTestId('tenant-name')).toHaveText('e2e');
  await expect(page.getByTestId('settings-form')).toBeVisible();

  await test.step('the person switches to the other tenant in a second tab', async () => {
    const second = await context.newPage();
    const switched = await second.request.post('/api/v1/session/tenant', {
      headers: { origin: baseURL ?? '' },
      data: { tenant: 'open-pages-other' },
    });
    expect(switched.status()).toBe(200);
    await second.goto('/');
    await expect(second.getByTestId('tenant-name')).toHaveText('Other tenant');
  });

  await test.step('saving the first tab changes the e2e tenant, and the tab stays on it', async () => {
    await page.getByTestId('settings-sensitive-paths').fill('tabs.secret');
    await page.getByTestId('settings-approval_ttl-custom').check();
    await page.getByTestId('settings-approval_ttl-seconds').fill('120');
    await page.getByTestId('settings-save').click();
    await expect(page.getByTestId('settings-status')).toHaveText('Saved. New calls use these settings.');
    expect(await settingsWith(page.request, E2E_KEY.authorization)).toMatchObject({
      sensitive_paths: ['tabs.secret'],
      approval_ttl_seconds: 120,
    });
    expect(await settingsWith(page.request, otherKey)).toEqual(otherBefore);
    // The page the save renders again is the e2e tenant's, not the one the cookie names now.
    await expect(page.getByTestId('tenant-name')).toHaveText('e2e');
  });

  await test.step('a second save from the same tab goes there too', async () => {
    await page.getByTestId('settings-duplicate_window-custom').check();
    await page.getByTestId('settings-duplicate_window-seconds').fill('30');
    const saved = page.waitForResponse((r) => r.request().method() === 'POST' && new URL(r.url()).pathname === '/settings');
    await page.getByTestId('settings-save').click();
    await saved;
    await expect(page.getByTestId('settings-status')).toHaveText('Saved. New calls use these settings.');
    expect(await settingsWith(page.request, E2E_KEY.authorization)).toMatchObject({
      sensitive_paths: ['tabs.secret'],
      approval_ttl_seconds: 120,
      duplicate_window_seconds: 30,
    });
    expect(await settingsWith(page.request, otherKey)).toEqual(otherBefore);
  });

  await test.step('an API key made from an API keys page opened for e2e belongs to e2e', async () => {
    // Opened afresh, a page follows the cookie: back to e2e first, then the other tab switches away.
    expect(
      (await page.request.post('/api/v1/session/tenant', { headers: { origin: baseURL ?? '' }, data: { tenant: 'e2e' } })).status(),
    ).toBe(200);
    await page.goto('/api-keys');
    await expect(page.getByTestId('tenant-name')).toHaveText('e2e');
    expect(
      (
        await page.request.post('/api/v1/session/tenant', { headers: { origin: baseURL ?? '' }, data: { tenant: 'open-pages-other' } })
      ).status(),
    ).toBe(200);
    await page.locator('#key-name').fill('made on the e2e keys page');
    await page.getByRole('button', { name: 'Create key' }).click();
    await expect(page.getByText('made on the e2e keys page').first()).toBeVisible();
    const keys = async (authorization: string) =>
      (
        (await (await page.request.get('/api/v1/api-keys', { headers: { authorization } })).json()) as { api_keys: { name: string }[] }
      ).api_keys.map((k) => k.name);
    expect(await keys(E2E_KEY.authorization)).toContain('made on the e2e keys page');
    expect(await keys(otherKey)).not.toContain('made on the e2e keys page');
  });
});

test("a Settings page left open refuses to undo another admin's change, and never writes what it did not change", async ({
  page,
  baseURL,
}) => {
  await signIn(page.request, baseURL, E2E_ADMIN);

  await test.step('another admin adds a sensitive path after the page loaded; changing the paths here is refused', async () => {
    await page.goto('/settings');
    await expect(page.getByTestId('settings-form')).toBeVisible();
    const loaded = await settingsWith(page.request, E2E_KEY.authorization);
    const patched = await page.request.patch('/api/v1/settings', {
      headers: E2E_KEY,
      data: { sensitive_paths: [...loaded.sensitive_paths, 'other.admin.path'] },
    });
    expect(patched.status()).toBe(200);

    await page.getByTestId('settings-sensitive-paths').fill('mine.path');
    await page.getByTestId('settings-save').click();
    await expect(page.getByTestId('settings-error')).toHaveText(
      'Sensitive argument paths was changed by someone else since you opened this page; reload to see it. Nothing was saved.',
    );
    const now = await settingsWith(page.request, E2E_KEY.authorization);
    expect(now.sensitive_paths).toContain('other.admin.path');
    expect(now.sensitive_paths).not.toContain('mine.path');
  });

  await test.step('reloaded, the page shows it; a change elsewhere on a page left open keeps the other admin’s newer values', async () => {
    await page.reload();
    await expect(page.getByTestId('settings-sensitive-paths')).toHaveValue(/other\.admin\.path/);
    const loaded = await settingsWith(page.request, E2E_KEY.authorization);
    // Another admin changes the duplicate window and the paths; this page changes only the expiry.
    expect(
      (
        await page.request.patch('/api/v1/settings', {
          headers: E2E_KEY,
          data: { duplicate_window_seconds: 45, sensitive_paths: [...loaded.sensitive_paths, 'second.admin.path'] },
        })
      ).status(),
    ).toBe(200);
    await page.getByTestId('settings-approval_ttl-custom').check();
    await page.getByTestId('settings-approval_ttl-seconds').fill('300');
    await page.getByTestId('settings-save').click();
    await expect(page.getByTestId('settings-status')).toHaveText('Saved. New calls use these settings.');
    expect(await settingsWith(page.request, E2E_KEY.authorization)).toEqual({
      ...loaded,
      approval_ttl_seconds: 300,
      duplicate_window_seconds: 45,
      sensitive_paths: [...loaded.sensitive_paths, 'second.admin.path'],
    });
  });
});

test("the violations page's Export CSV exports the tenant it shows after its person switched to another in a second tab", async ({
  page,
  context,
  baseURL,
}) => {
  const other = await seedSecondTenant({ slug: 'open-pages-csv', name: 'CSV tenant', email: E2E_ADMIN.email, role: 'admin' });
  const refuse = async (authorization: string, callId: string) => {
    const response = await page.request.post('/api/v1/validate/pre', {
      headers: { authorization },
      data: { tool: 'no.such_tool', call_id: callId, arguments: {} },
    });
    expect(response.status()).toBe(200);
  };
  await refuse(E2E_KEY.authorization, 'csv-call-of-e2e');
  await refuse(`Bearer ${other.adminKey}`, 'csv-call-of-other');
  await signIn(page.request, baseURL, E2E_ADMIN);
  await page.goto('/violations');
  await expect(page.getByTestId('tenant-name')).toHaveText('e2e');

  const second = await context.newPage();
  const switched = await second.request.post('/api/v1/session/tenant', {
    headers: { origin: baseURL ?? '' },
    data: { tenant: 'open-pages-csv' },
  });
  expect(switched.status()).toBe(200);

  const href = await page.getByTestId('violations-csv').getAttribute('href');
  const exported = await page.request.get(href ?? '');
  expect(exported.status()).toBe(200);
  const csv = await exported.text();
  expect(csv).toContain('csv-call-of-e2e');
  expect(csv).not.toContain('csv-call-of-other');
});
