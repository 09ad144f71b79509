import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { refundPaymentContract } from '../lib/contracts/examples';
import { signIn } from './sign-in';
import { E2E_ADMIN, E2E_INIT_API_KEY } from './test-env';

// The overview is live: with the page open, a refused call shows up in the last hour's counts
// and the tiles, a webhook receiver that cannot be reached shows up as failing, a failed refresh
// is said so and recovered from, and none of it reloads the page. Counts are read before and
// after, since other specs share the tenant.

const ADMIN_KEY = { authorization: `Bearer ${E2E_INIT_API_KEY}` };
// A copy of the refund contract under its own id: its calls are held for approval, which is
// what makes a webhook event; approvals.spec.ts publishes the original.
const HELD = { ...refundPaymentContract, id: 'overview.refund' };
// .invalid never resolves (RFC 2606): every delivery attempt fails, quickly and offline.
const RECEIVER = 'https://overview-e2e.invalid/hooks/toolgate';

async function validatePre(request: APIRequestContext, data: Record<string, unknown>): Promise<{ decision: string }> {
  const response = await request.post('/api/v1/validate/pre', { headers: ADMIN_KEY, data });
  expect(response.status()).toBe(200);
  return (await response.json()) as { decision: string };
}

async function count(page: Page, testId: string): Promise<number> {
  return Number((await page.getByTestId(testId).innerText()).replace(/,/g, ''));
}

const tileValue = async (page: Page, testId: string) =>
  Number((await page.getByTestId(testId).locator('p').nth(1).innerText()).replace(/,/g, ''));

test('the overview updates on its own: a new call, a failing webhook receiver, a failed refresh, all without a reload', async ({
  page,
  baseURL,
}, testInfo) => {
  // Each step waits for at most a couple of 5-second refreshes; the budget leaves room for a
  // sign-in that must wait out Better Auth's rate limit. Nothing here sleeps.
  test.setTimeout(120_000);
  await signIn(page.request, baseURL, E2E_ADMIN);
  // At least one record, so the page shows its figures rather than the first-call guide.
  expect((await validatePre(page.request, { tool: 'overview.unknown_tool', call_id: 'overview-warm-up', arguments: {} })).decision).toBe(
    'deny',
  );

  await page.goto('/');
  await expect(page.getByRole('heading', { name: 'Overview', level: 1 })).toBeVisible();
  await expect(page.getByTestId('overview-status')).toContainText('Live');
  await expect(page.getByTestId('overview-chain-status')).toHaveText('Verified');
  // A reload would start a new document, and lose this.
  await page.evaluate(() => Object.assign(window, { overviewMarker: 'the same document' }));

  await test.step('a call made while the page is open appears in the last hour and the tiles', async () => {
    const calls = await count(page, 'overview-hour-calls');
    // An unknown tool is the agent's mistake.
    const mistakes = await count(page, 'overview-hour-arguments');
    const tile = await tileValue(page, 'overview-calls');
    const updated = await page.getByTestId('overview-updated').innerText();
    expect((await validatePre(page.request, { tool: 'overview.unknown_tool', call_id: 'overview-live', arguments: {} })).decision).toBe(
      'deny',
    );

    await expect(page.getByTestId('overview-hour-calls')).toHaveText(String(calls + 1), { timeout: 15_000 });
    await expect(page.getByTestId('overview-hour-arguments')).toHaveText(String(mistakes + 1));
    expect(await tileValue(page, 'overview-calls')).toBe(tile + 1);
    await expect(page.getByTestId('overview-updated')).not.toHaveText(updated);
    await expect(page.getByTestId('overview-chain-status')).toHaveText('Verified');
  });

  await test.step('a webhook receiver that cannot be reached shows up as failing', async () => {
    const created = await page.request.post('/api/v1/webhooks', {
      headers: ADMIN_KEY,
      data: { url: RECEIVER, events: ['approval.pending'] },
    });
    expect(created.status()).toBe(201);
    const webhookId = ((await created.json()) as { id: string }).id;
    expect((await page.request.post('/api/v1/contracts', { headers: ADMIN_KEY, data: HELD })).status()).toBe(201);
    expect(
      (await page.request.post(`/api/v1/contracts/${HELD.id}/versions/${HELD.version}/publish`, { headers: ADMIN_KEY, data: {} })).status(),
    ).toBe(200);
    const held = await validatePre(page.request, {
      tool: HELD.id,
      call_id: 'overview-held',
      arguments: { tenant_id: 'acme', payment_id: 'pay_overview01', amount_cents: 1200, reason: 'duplicate' },
      context: { tenant_id: 'acme', user_id: 'overview-end-user', roles: ['support'], state: { payment_status: 'captured' } },
    });
    expect(held.decision).toBe('require_approval');

    // The dispatcher's first attempt fails on DNS; the delivery waits for its retry.
    const failing = page.getByTestId('overview-webhooks-failing');
    await expect(failing).toContainText('overview-e2e.invalid', { timeout: 20_000 });
    await expect(failing).not.toContainText('/hooks/toolgate');
    expect(await count(page, 'overview-webhooks-retrying')).toBeGreaterThanOrEqual(1);
    await expect(page.getByTestId('overview-webhooks-oldest')).toContainText('Oldest delivery still to be made');
    await expect(page.getByTestId('overview-pending-approvals')).not.toContainText('nothing waiting');
    const snap = testInfo.outputPath('overview.png');
    await page.screenshot({ path: snap, fullPage: true });
    await testInfo.attach('overview', { path: snap, contentType: 'image/png' });

    // Leave the shared tenant as it was: no receiver that fails.
    expect((await page.request.delete(`/api/v1/webhooks/${webhookId}`, { headers: ADMIN_KEY })).status()).toBe(200);
    await expect(page.getByTestId('overview-webhooks-failing')).toHaveCount(0, { timeout: 15_000 });
  });

  await test.step('a refresh that fails is said so, the figures stay, and the next one recovers', async () => {
    await page.route('**/api/v1/overview', (route) =>
      route.fulfill({
        status: 503,
        contentType: 'application/json',
        body: JSON.stringify({ error: { code: 'unavailable', message: 'Try later.' } }),
      }),
    );
    await expect(page.getByTestId('overview-status')).toContainText('Not updated: Try later.', { timeout: 15_000 });
    await expect(page.getByTestId('overview-hour-calls')).toBeVisible();
    await page.unroute('**/api/v1/overview');
    await expect(page.getByTestId('overview-status')).toContainText('Live', { timeout: 15_000 });
  });

  await test.step('a chain too long for one request points at the background run', async () => {
    await page.route('**/api/v1/evidence/verify', (route) =>
      route.fulfill({
        status: 409,
        contentType: 'application/json',
        body: JSON.stringify({
          error: { code: 'verification_too_large', message: 'Too many.', details: { records: 3_000_000, max: 250_000 } },
        }),
      }),
    );
    await page.getByRole('button', { name: 'Verify the whole chain' }).click();
    await expect(page.getByTestId('overview-chain-whole')).toContainText(
      '3,000,000 records to read are more than one request verifies (250,000). Re-verify every record below',
    );
    await expect(page.getByRole('button', { name: 'Re-verify every record' })).toBeEnabled();
    await page.unroute('**/api/v1/evidence/verify');
  });

  await test.step('an admin verifies the whole chain from the page', async () => {
    await page.getByRole('button', { name: 'Verify the whole chain' }).click();
    await expect(page.getByTestId('overview-chain-whole')).toContainText(/All [\d,]+ records verify/);
  });

  expect(await page.evaluate(() => (window as unknown as { overviewMarker?: string }).overviewMarker)).toBe('the same document');
});
