import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { E2E_ADMIN, E2E_INIT_API_KEY, E2E_TENANT } from './test-env';

// The one test that signs in through the form: it checks the login itself, then walks the
// key lifecycle an operator depends on (create, use, revoke) across the UI and the API.

function validateUnknownTool(request: APIRequestContext, key: string) {
  return request.post('/api/v1/validate/pre', {
    headers: { authorization: `Bearer ${key}` },
    data: { tool: 'nope.nope', call_id: 'e2e', arguments: {}, context: {} },
  });
}

/**
 * Submits the sign-in form. Better Auth allows 3 sign-ins per 10 s from one address and the
 * specs before this one sign in from 127.0.0.1 too, so a 429 is waited out as its
 * X-Retry-After says, as a person would, and the form submitted again.
 */
async function submitSignIn(page: Page): Promise<void> {
  for (let attempt = 0; attempt < 3; attempt++) {
    const answered = page.waitForResponse((response) => new URL(response.url()).pathname === '/api/auth/sign-in/email');
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    const response = await answered;
    if (response.status() !== 429) return;
    const wait = Number(response.headers()['x-retry-after'] ?? '10');
    await page.waitForTimeout((Number.isFinite(wait) ? Math.min(Math.max(wait, 1), 15) : 10) * 1000);
  }
}

test('sign in, see the shell, create, use and revoke an API key', async ({ page, request }, testInfo) => {
  await test.step('signed-out visitors land on sign-in', async () => {
    await page.goto('/');
    await expect(page).toHaveURL(/\/sign-in$/);
  });

  await test.step('a wrong password is refused with a clear message', async () => {
    await page.getByLabel('Email').fill(E2E_ADMIN.email);
    await page.getByLabel('Password').fill('not-the-password');
    await submitSignIn(page);
    // Filtered by text: Next's route announcer is an alert region too.
    await expect(page.getByRole('alert').filter({ hasText: 'Wrong email or password.' })).toBeVisible();
    await expect(page).toHaveURL(/\/sign-in$/);
  });

  await test.step('the right password opens the dashboard shell', async () => {
    await page.getByLabel('Password').fill(E2E_ADMIN.password);
    await submitSignIn(page);
    await expect(page).toHaveURL(/\/$/);
    const nav = page.getByRole('navigation', { name: 'Main' });
    for (const live of ['Overview', 'Approvals', 'Traces', 'Violations', 'Contracts', 'Policies', 'Surfaces', 'API keys']) {
      await expect(nav.getByRole('link', { name: new RegExp(`^${live}`) })).toBeVisible();
    }
    await expect(page.getByTestId('tenant-name')).toHaveText(E2E_TENANT);
    await expect(page.getByRole('banner')).toContainText(`${E2E_ADMIN.email} admin`);
    await expect(page.getByRole('heading', { name: 'Overview', level: 1 })).toBeVisible();
  });

  let key = '';
  await test.step('create a validate key and see it once', async () => {
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'API keys' }).click();
    await expect(page).toHaveURL(/\/api-keys$/);
    await page.getByLabel('Name').fill('e2e agent');
    await expect(page.getByRole('checkbox', { name: /validate/ })).toBeChecked();
    await expect(page.getByRole('checkbox', { name: /author/ })).not.toBeChecked();
    await expect(page.getByLabel('Expires')).toHaveValue('');
    await page.getByLabel('Expires').selectOption({ label: 'in 90 days' });
    await page.getByRole('button', { name: 'Create key' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'This key is shown once' })).toBeVisible();
    key = (await page.getByTestId('new-api-key').textContent()) ?? '';
    expect(key).toMatch(/^tg_\S{20,}$/);
    const row = page.getByRole('row', { name: /e2e agent/ });
    await expect(row).toContainText(key.slice(0, 11));
    await expect(row).toContainText('validate');
    await expect(row).toContainText('active');
    // Past a month away, the date itself (UTC).
    const days = [89, 90, 91].map((n) => new Date(Date.now() + n * 86_400_000).toISOString().slice(0, 10));
    await expect(row.getByTestId('key-expires')).toHaveText(new RegExp(`^(${days.join('|')})$`));
  });

  await test.step('a key that expires within a week stands out', async () => {
    const made = await request.post('/api/v1/api-keys', {
      headers: { authorization: `Bearer ${E2E_INIT_API_KEY}` },
      data: { name: 'e2e short-lived agent', scopes: ['validate'], expires_in_days: 3 },
    });
    expect(made.status()).toBe(201);
    await page.reload();
    const expires = page.getByRole('row', { name: /e2e short-lived agent/ }).getByTestId('key-expires');
    await expect(expires).toHaveText(/^in 2 days$|^in 3 days$/);
    await expect(expires).toHaveAttribute('title', /Expires within a week/);
    await expect(page.getByRole('row', { name: /e2e agent/ }).getByTestId('key-expires')).not.toHaveAttribute('title', /.+/);
    // The overview says so too, and where to go.
    await page.goto('/');
    const notice = page.getByTestId('overview-keys-expiring');
    await expect(notice).toContainText('One API key expires within a week');
    await notice.getByRole('link', { name: 'API keys' }).click();
    await expect(page).toHaveURL(/\/api-keys$/);
  });

  await test.step('the key works against the API', async () => {
    const response = await validateUnknownTool(request, key);
    expect(response.status()).toBe(200);
    const body = await response.json();
    expect(body.decision).toBe('deny');
    expect(body.errors.map((e: { code: string }) => e.code)).toEqual(['AXAG_UNKNOWN_TOOL']);
    expect(body.error).toMatchObject({ code: 'AXAG_VALIDATION_ERROR', type: 'unknown_tool' });
  });

  await test.step('the key cannot be seen again', async () => {
    await page.reload();
    await expect(page.getByRole('row', { name: /e2e agent/ })).toBeVisible();
    await expect(page.getByTestId('new-api-key')).toHaveCount(0);
    expect(await page.content()).not.toContain(key);
  });

  await test.step('revoking takes the key out of service', async () => {
    const row = page.getByRole('row', { name: /e2e agent/ });
    await row.getByRole('button', { name: 'Revoke' }).click();
    await row.getByRole('button', { name: 'Confirm revoke' }).click();
    await expect(row).toContainText('revoked');
    await expect(row.getByRole('button')).toHaveCount(0);
    const response = await validateUnknownTool(request, key);
    expect(response.status()).toBe(401);
    await page.screenshot({ path: testInfo.project.outputDir + '/api-keys.png', fullPage: true });
  });

  await test.step('signing out returns to sign-in', async () => {
    await page.getByRole('button', { name: 'Sign out' }).click();
    await expect(page).toHaveURL(/\/sign-in$/);
    await page.goto('/api-keys');
    await expect(page).toHaveURL(/\/sign-in$/);
  });
});
