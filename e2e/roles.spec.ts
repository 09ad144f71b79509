import { expect, test } from '@playwright/test';
import { seedMember } from './seed';

const VIEWER = { email: 'e2e-viewer@example.com', password: 'e2e-viewer-password', role: 'viewer' } as const;

test('a viewer sees API keys but cannot create or revoke them', async ({ page, baseURL }) => {
  await seedMember(VIEWER);
  // Signed in through the API: the form itself is covered by the smoke test.
  const response = await page.request.post('/api/auth/sign-in/email', {
    headers: { origin: baseURL ?? '' },
    data: { email: VIEWER.email, password: VIEWER.password },
  });
  expect(response.status()).toBe(200);

  await page.goto('/api-keys');
  await expect(page.getByRole('banner')).toContainText(`${VIEWER.email} viewer`);
  await expect(page.getByText('Only admins can create or revoke keys; your role is viewer.')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Create key' })).toHaveCount(0);
  await expect(page.getByRole('row', { name: /init key/ })).toContainText('active');
  await expect(page.getByRole('button', { name: 'Revoke' })).toHaveCount(0);
});
