import { expect, test, type Page } from '@playwright/test';
import { refundPaymentContract } from '../lib/contracts/examples';
import { seedMember, seedSecondTenant } from './seed';
import { signIn } from './sign-in';

// A queue longer than one page: the page showed "Pending (50)" beside a nav badge of 52, and
// the two oldest approvals (the first to expire) could not be reached at all.

const PERSON = { email: 'many-approvals-admin@example.com', password: 'many-approvals-password', role: 'viewer' } as const;
const SLUG = 'many-approvals';
const TOOL = refundPaymentContract.id;
const CONTEXT = { tenant_id: 'acme', user_id: 'agent-end-user', roles: ['support'], state: { payment_status: 'captured' } };
const HELD = 52;

const callId = (page: Page, id: string) => page.getByTestId('approval-call-id').filter({ hasText: new RegExp(`^${id}$`) });

test('a queue of more pending approvals than a page shows their true count and reaches the oldest', async ({ page, request, baseURL }) => {
  test.setTimeout(120_000);
  await seedMember(PERSON);
  const { adminKey } = await seedSecondTenant({ slug: SLUG, name: 'Many approvals', email: PERSON.email, role: 'admin' });
  const admin = { authorization: `Bearer ${adminKey}` };
  expect((await request.post('/api/v1/contracts', { headers: admin, data: refundPaymentContract })).status()).toBeLessThan(300);
  const published = await request.post(`/api/v1/contracts/${TOOL}/versions/${refundPaymentContract.version}/publish`, {
    headers: admin,
    data: {},
  });
  expect(published.status()).toBe(200);
  for (let i = 0; i < HELD; i++) {
    const held = await request.post('/api/v1/validate/pre', {
      headers: admin,
      data: {
        tool: TOOL,
        call_id: `many-${i}`,
        context: CONTEXT,
        arguments: { tenant_id: 'acme', payment_id: 'pay_abcdefgh12', amount_cents: 1000 + i, reason: 'duplicate' },
      },
    });
    expect(((await held.json()) as { decision: string }).decision).toBe('require_approval');
  }

  await signIn(page.request, baseURL, PERSON);
  expect((await page.request.post('/api/v1/session/tenant', { headers: { origin: baseURL ?? '' }, data: { tenant: SLUG } })).status()).toBe(
    200,
  );
  await page.goto('/approvals');
  await expect(page.getByTestId('pending-count')).toHaveText(`(${HELD})`);
  await expect(page.getByTestId('pending-shown')).toContainText(`Showing the 50 newest of ${HELD} pending approvals`);
  await expect(callId(page, 'many-51')).toBeVisible();
  await expect(callId(page, 'many-0')).toHaveCount(0);

  await page.getByTestId('pending-show-older').click();
  await expect(callId(page, 'many-0')).toBeVisible();
  await expect(page.getByTestId('pending-show-older')).toHaveCount(0);
  await expect(page.getByTestId('pending-count')).toHaveText(`(${HELD})`);
});

// The queue polls the API; when that stopped working (the session ended, the person was
// removed) the page went on showing the pending approvals and their countdowns as if live.
const LEAVER = { email: 'queue-leaver@example.com', password: 'queue-leaver-password', role: 'approver' } as const;

test('the queue says it is no longer updated once the session has ended', async ({ page, baseURL }) => {
  test.setTimeout(90_000);
  await seedMember(LEAVER);
  await signIn(page.request, baseURL, LEAVER);
  await page.goto('/approvals');
  await expect(page.getByTestId('pending-count')).toBeVisible();
  await expect(page.getByTestId('approvals-stale')).toHaveCount(0);

  expect((await page.request.post('/api/auth/sign-out', { headers: { origin: baseURL ?? '' }, data: {} })).status()).toBe(200);
  await expect(page.getByTestId('approvals-stale')).toContainText('Not updated: Your session has ended; sign in again.');
});

// Between the deadline and the next refresh (longer when refreshes fail) the countdown said
// "expired left".
const WATCHER = { email: 'queue-watcher@example.com', password: 'queue-watcher-password', role: 'approver' } as const;

test('a pending approval whose time is up says "expired", not "expired left"', async ({ page, request, baseURL }) => {
  test.setTimeout(90_000);
  await seedMember(WATCHER);
  const { adminKey } = await seedSecondTenant({ slug: 'expiring-approval', name: 'Expiring', email: WATCHER.email, role: 'admin' });
  const admin = { authorization: `Bearer ${adminKey}` };
  expect((await request.post('/api/v1/contracts', { headers: admin, data: refundPaymentContract })).status()).toBeLessThan(300);
  expect(
    (
      await request.post(`/api/v1/contracts/${TOOL}/versions/${refundPaymentContract.version}/publish`, { headers: admin, data: {} })
    ).status(),
  ).toBe(200);
  const held = await request.post('/api/v1/validate/pre', {
    headers: admin,
    data: {
      tool: TOOL,
      call_id: 'expiring',
      context: CONTEXT,
      arguments: { tenant_id: 'acme', payment_id: 'pay_abcdefgh12', amount_cents: 500, reason: 'duplicate' },
    },
  });
  expect(((await held.json()) as { decision: string }).decision).toBe('require_approval');

  await page.clock.install();
  await signIn(page.request, baseURL, WATCHER);
  expect(
    (
      await page.request.post('/api/v1/session/tenant', { headers: { origin: baseURL ?? '' }, data: { tenant: 'expiring-approval' } })
    ).status(),
  ).toBe(200);
  await page.goto('/approvals');
  await expect(page.getByTestId('time-left')).toContainText('left');
  // The page's clock passes the deadline (the contract gives 900 s) before any refresh hears of it.
  await page.clock.fastForward('20:00');
  await expect(page.getByTestId('time-left')).toHaveText('expired');
});
