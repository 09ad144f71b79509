import { expect, test } from '@playwright/test';
import { seedMember } from './seed';
import { signIn } from './sign-in';

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
