import { expect, test, type Page, type TestInfo } from '@playwright/test';
import { seedDemoTenantWithMember } from './seed';
import { signIn } from './sign-in';

// The demo tenant a newcomer gets on the first start (lib/seed/demo-tenant.ts) is lived in:
// each page of the dashboard opens on something real, made by the same seed the first start
// runs. Its visitor is a member of the demo tenant only, so the dashboard opens on it.

const VISITOR = { email: 'demo-visitor@example.com', password: 'demo-visitor-password' } as const;

async function snap(page: Page, testInfo: TestInfo, name: string): Promise<void> {
  const path = testInfo.outputPath(`${name}.png`);
  await page.screenshot({ path, fullPage: true });
  await testInfo.attach(name, { path, contentType: 'image/png' });
}

test('the demo tenant has something on every page: overview, traces, violations, approvals, policies, surfaces', async ({
  page,
  baseURL,
}, testInfo) => {
  test.setTimeout(120_000);
  await seedDemoTenantWithMember({ ...VISITOR, role: 'approver' });
  await signIn(page.request, baseURL, VISITOR);
  await page.setViewportSize({ width: 1440, height: 900 });

  await test.step('the overview: calls this hour, every kind of refusal today, a spike of agent mistakes, a verified chain', async () => {
    await page.goto('/');
    await expect(page.getByTestId('tenant-name')).toHaveText('Demo tenant');
    await expect(page.getByTestId('overview-chain-status')).toHaveText('Verified');
    expect(Number(await page.getByTestId('overview-hour-calls').innerText())).toBeGreaterThanOrEqual(9);
    for (const kind of ['arguments', 'policy', 'approval', 'tool'])
      expect(Number(await page.getByTestId(`overview-day-${kind}`).innerText()), kind).toBeGreaterThan(0);
    await expect(page.getByTestId('overview-kind-arguments-spike')).toBeVisible();
    await expect(page.getByTestId('overview-top-codes')).toContainText('AXAG_PATTERN_MISMATCH');
    await snap(page, testInfo, 'demo-overview');
  });

  await test.step('traces: a full page of the support agent’s calls', async () => {
    await page.goto('/traces');
    await expect(page.getByTestId('trace-row').first()).toBeVisible();
    expect(await page.getByTestId('trace-row').count()).toBeGreaterThanOrEqual(20);
    await expect(page.getByTestId('traces-empty')).toHaveCount(0);
  });

  await test.step('violations: each kind has some over the last week', async () => {
    for (const kind of ['arguments', 'policy', 'approval', 'tool']) {
      await page.goto(`/violations?kind=${kind}&range=7d`);
      await expect(page.getByTestId('violation-row').first(), kind).toBeVisible();
    }
    await page.goto('/violations?range=7d');
    await expect(page.getByTestId('violations-chart')).toBeVisible();
    await snap(page, testInfo, 'demo-violations');
  });

  await test.step('approvals: one credit waiting for an approver, two refunds decided', async () => {
    await page.goto('/approvals');
    await expect(page.getByTestId('pending-count')).toHaveText('(1)');
    const pending = page.locator('[data-testid="approval-row"][data-status="pending"]');
    await expect(pending).toHaveCount(1);
    await expect(pending).toContainText('support.issue_credit');
    await expect(page.locator('[data-testid="approval-row"][data-status="approved"]')).toHaveCount(1);
    await expect(page.locator('[data-testid="approval-row"][data-status="denied"]')).toHaveCount(1);
    await snap(page, testInfo, 'demo-approvals');
  });

  await test.step('policies and the surface, published', async () => {
    await page.goto('/policies');
    for (const id of ['lookup-minimisation', 'credit-rules', 'credit-limits'])
      await expect(page.getByRole('link', { name: id })).toBeVisible();
    await page.goto('/surfaces');
    await expect(page.getByRole('link', { name: 'support-agent' })).toBeVisible();
  });
});
