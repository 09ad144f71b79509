import { expect, test } from '@playwright/test';
import { CONTRACT_TEMPLATES } from '../lib/contracts/templates';
import { seedSecondTenant } from './seed';
import { signIn } from './sign-in';
import { E2E_ADMIN } from './test-env';

// A tenant an operator starts (TOOLGATE_INIT_TENANT, or one added later) has no contracts. Its
// empty overview shows the first-call example, which calls orders.lookup; until that contract is
// published there, the page says the call would be refused and how to publish it.

const SLUG = 'first-call-empty';
const template = CONTRACT_TEMPLATES.find((candidate) => candidate.id === 'read-only-query')!;

test('an empty tenant is told to publish the example contract before the first call, and no longer once it has', async ({
  page,
  baseURL,
}) => {
  const other = await seedSecondTenant({ slug: SLUG, name: 'Empty start', email: E2E_ADMIN.email, role: 'admin' });
  const admin = { authorization: `Bearer ${other.adminKey}` };
  await signIn(page.request, baseURL, E2E_ADMIN);
  const switched = await page.request.post('/api/v1/session/tenant', { headers: { origin: baseURL ?? '' }, data: { tenant: SLUG } });
  expect(switched.status()).toBe(200);

  await page.goto('/');
  await expect(page.getByTestId('tenant-name')).toHaveText('Empty start');
  const guide = page.getByTestId('no-calls-yet');
  await expect(guide).toContainText('curl -s');
  await expect(guide.getByTestId('first-call-needs-contract')).toContainText(
    'This tenant has no published orders.lookup contract yet, so the call would be refused as an unknown tool.',
  );
  await expect(guide.getByRole('link', { name: 'New contract' })).toHaveAttribute('href', '/contracts/new');

  const created = await page.request.post('/api/v1/contracts', { headers: admin, data: template.document });
  expect(created.status(), await created.text()).toBe(201);
  const published = await page.request.post(`/api/v1/contracts/orders.lookup/versions/${String(template.document.version)}/publish`, {
    headers: admin,
    data: {},
  });
  expect(published.status(), await published.text()).toBe(200);

  await page.goto('/traces');
  await expect(page.getByTestId('no-calls-yet')).toContainText('curl -s');
  await expect(page.getByTestId('first-call-needs-contract')).toHaveCount(0);
});
