import { expect, test } from '@playwright/test';
import { seedMember } from './seed';
import { signIn } from './sign-in';
import { E2E_INIT_API_KEY } from './test-env';

const VIEWER = { email: 'e2e-viewer@example.com', password: 'e2e-viewer-password', role: 'viewer' } as const;

test('a viewer sees API keys but cannot create or revoke them', async ({ page, baseURL }) => {
  await seedMember(VIEWER);
  await signIn(page.request, baseURL, VIEWER);

  await page.goto('/api-keys');
  await expect(page.getByRole('banner')).toContainText(`${VIEWER.email} viewer`);
  await expect(page.getByText('Only admins can create or revoke keys; your role is viewer.')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Create key' })).toHaveCount(0);
  await expect(page.getByRole('row', { name: /init key/ })).toContainText('active');
  await expect(page.getByRole('button', { name: 'Revoke' })).toHaveCount(0);
});

test("a key's admin scope shows as not in effect once its person is demoted", async ({ page, baseURL, request }) => {
  const ADMIN = { email: 'e2e-demoted-admin@example.com', password: 'e2e-demoted-password', role: 'admin' } as const;
  const ADMIN_KEY = { authorization: `Bearer ${E2E_INIT_API_KEY}` };
  await seedMember(ADMIN);
  await signIn(page.request, baseURL, ADMIN);

  await page.goto('/api-keys');
  await page.getByLabel('Name').fill('demoted admin key');
  await page.getByRole('checkbox', { name: /^admin/ }).check();
  await page.getByRole('button', { name: 'Create key' }).click();
  const row = page.getByRole('row', { name: /demoted admin key/ });
  await expect(row.getByTestId('key-scopes')).toHaveText('validate, admin');

  const members = (await (await request.get('/api/v1/members', { headers: ADMIN_KEY })).json()) as {
    members: { id: string; email: string }[];
  };
  const id = members.members.find((m) => m.email === ADMIN.email)?.id;
  const demoted = await request.patch(`/api/v1/members/${id}`, { headers: ADMIN_KEY, data: { role: 'viewer' } });
  expect(demoted.status()).toBe(200);

  // The admin who is now a viewer still sees the page (read-only); the scope is struck through.
  await page.reload();
  await expect(row.getByTestId('key-scopes')).toContainText('limited by role');
  await expect(row.getByTestId('key-scopes').locator('s')).toHaveText('admin');
});
