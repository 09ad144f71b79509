import { expect, test, type APIRequestContext, type Page, type TestInfo } from '@playwright/test';
import { lookupOrderContract, refundPaymentContract } from '../lib/contracts/examples';
import { seedArgumentRetention, seedMember } from './seed';
import { signIn } from './sign-in';
import { E2E_ADMIN, E2E_INIT_API_KEY } from './test-env';

// The traces list and a trace as people use them: search by the start of a call id or by any
// part of it, a whole row that opens the trace, how the call ended in its header, its
// arguments and result under the spans (argument retention on), an approver's edit by their
// email, and a live tail that shows a new call without a reload.

const ADMIN_KEY = { authorization: `Bearer ${E2E_INIT_API_KEY}` };
// Copies under their own ids: other specs publish the originals.
const LOOKUP = { ...lookupOrderContract, id: 'traces.lookup' };
const REFUND = { ...refundPaymentContract, id: 'traces.refund' };
const APPROVER = { email: 'traces-approver@example.com', password: 'traces-approver-password', role: 'approver' } as const;
// Call ids of this run; the tenant is shared with other specs.
const RUN = `trc${Date.now().toString(36)}`;
const lookupArgs = { tenant_id: 'acme', order_id: 'ord_traces01' };
const refundArgs = { tenant_id: 'acme', payment_id: 'pay_traces0001', amount_cents: 4200, reason: 'duplicate' };
const refundContext = { tenant_id: 'acme', user_id: 'traces-end-user', roles: ['support'], state: { payment_status: 'captured' } };

async function post(request: APIRequestContext, url: string, headers: Record<string, string>, data: unknown, status = 200) {
  const response = await request.post(url, { headers, data });
  const body = (await response.json()) as Record<string, unknown>;
  expect(response.status(), JSON.stringify(body)).toBe(status);
  return body;
}

/** Full-page screenshots at the two widths people use, kept as test artifacts. */
async function snap(page: Page, testInfo: TestInfo, name: string) {
  for (const width of [1440, 1024]) {
    await page.setViewportSize({ width, height: 900 });
    const path = testInfo.outputPath(`${name}-${width}.png`);
    await page.screenshot({ path, fullPage: true });
    await testInfo.attach(`${name}-${width}`, { path, contentType: 'image/png' });
  }
  await page.setViewportSize({ width: 1440, height: 900 });
}

test('traces: search by prefix and substring, whole rows, the outcome, retained payloads, people by email, a live tail', async ({
  page,
  browser,
  baseURL,
}, testInfo) => {
  test.setTimeout(180_000);
  const request = page.request;
  let agentKey = '';
  const traceIds: Record<string, string> = {};
  const pre = async (callId: string, tool: string, args: unknown, context: unknown = { tenant_id: 'acme' }) => {
    const body = await post(
      request,
      '/api/v1/validate/pre',
      { authorization: `Bearer ${agentKey}` },
      { tool, call_id: callId, arguments: args, context },
    );
    traceIds[callId] = String(body.trace_id);
    return body;
  };

  await test.step('setup: two contracts, argument retention on, an agent key, an approver', async () => {
    for (const contract of [LOOKUP, REFUND]) {
      await post(request, '/api/v1/contracts', ADMIN_KEY, contract, 201);
      await post(request, `/api/v1/contracts/${contract.id}/versions/${contract.version}/publish`, ADMIN_KEY, {});
    }
    agentKey = (await seedArgumentRetention({ retain: true, agentKey: 'traces agent' })) ?? '';
    await seedMember(APPROVER);
  });

  await test.step('calls: one allowed and reported, one denied, one held and approved with an edit', async () => {
    expect((await pre(`${RUN}-alpha-1`, LOOKUP.id, lookupArgs)).decision).toBe('allow');
    await post(
      request,
      '/api/v1/validate/post',
      { authorization: `Bearer ${agentKey}` },
      {
        tool: LOOKUP.id,
        call_id: `${RUN}-alpha-1`,
        arguments: lookupArgs,
        result: { order_id: 'ord_traces01', status: 'shipped' },
        execution_ms: 42,
      },
    );
    expect((await pre(`${RUN}-alpha-2`, LOOKUP.id, { tenant_id: 'acme', order_id: 'BAD' })).decision).toBe('deny');
    const held = await pre(`${RUN}-beta-1`, REFUND.id, refundArgs, refundContext);
    expect(held.decision).toBe('require_approval');
    const approvalId = (held.approval as { id: string }).id;
    // The approver decides in their own session, editing the amount.
    const context = await browser.newContext({ baseURL });
    await signIn(context.request, baseURL, APPROVER);
    await post(
      context.request,
      `/api/v1/approvals/${approvalId}/decision`,
      { origin: baseURL ?? '' },
      { decision: 'approve', arguments: { ...refundArgs, amount_cents: 2100 }, comment: 'half of it' },
    );
    await context.close();
  });

  await signIn(request, baseURL, E2E_ADMIN);
  const rows = page.getByTestId('trace-row');
  const callIds = async () => (await rows.locator('td:last-child').allInnerTexts()).map((t) => t.trim());

  await test.step('search by the start of a call id, then by a part of it', async () => {
    await page.goto('/traces');
    await page.getByLabel('Search', { exact: true }).fill(`${RUN}-alpha`);
    await page.getByRole('combobox', { name: 'Match', exact: true }).selectOption('prefix');
    await page.getByRole('button', { name: 'Apply' }).click();
    await expect(page).toHaveURL(/match=prefix/);
    await expect(rows).toHaveCount(2);
    expect(await callIds()).toEqual([`${RUN}-alpha-2`, `${RUN}-alpha-1`]);
    await expect(page.getByTestId('traces-search-scanned')).toHaveCount(0);

    // "alpha-" starts no call id, but two contain it.
    await page.getByLabel('Search', { exact: true }).fill('alpha-');
    await page.getByRole('button', { name: 'Apply' }).click();
    await expect(page.getByTestId('traces-empty')).toBeVisible();
    await page.getByRole('combobox', { name: 'Match', exact: true }).selectOption('contains');
    await page.getByRole('button', { name: 'Apply' }).click();
    await expect(rows).toHaveCount(2);
    expect(await callIds()).toEqual([`${RUN}-alpha-2`, `${RUN}-alpha-1`]);
    await expect(page.getByTestId('traces-search-scanned')).toContainText('“Contains” has no index to use');
    // A trace id by its first characters.
    await page.goto(`/traces?q=${traceIds[`${RUN}-beta-1`]?.slice(0, 10).toUpperCase()}`);
    await expect(rows).toHaveCount(1);
    expect(await callIds()).toEqual([`${RUN}-beta-1`]);
  });

  await test.step('a whole row opens its trace, with one link in the tab order', async () => {
    await page.goto(`/traces?q=${RUN}-alpha-1`);
    const row = rows.filter({ hasText: `${RUN}-alpha-1` });
    await expect(row).toHaveCount(1);
    await expect(row.getByRole('link')).toHaveCount(1);
    await snap(page, testInfo, 'traces-search');
    // A click on the tool's cell, not on the time link.
    await row.locator('td').nth(2).click();
    await expect(page).toHaveURL(new RegExp(`/traces/${traceIds[`${RUN}-alpha-1`]}$`));
    await page.goBack();
    await rows.first().getByRole('link').focus();
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(new RegExp(`/traces/${traceIds[`${RUN}-alpha-1`]}$`));
  });

  await test.step('the header says how the call ended; the spans show its arguments and result', async () => {
    await expect(page.getByTestId('trace-outcome-call')).toHaveText('allowed');
    await expect(page.getByTestId('trace-outcome-result')).toHaveText('post-call passed');
    await expect(page.getByTestId('trace-outcome-summary')).toHaveText('Allowed; its result passed the post-call checks.');
    const span = (kind: string) => page.locator(`[data-testid="trace-span"][data-kind="${kind}"]`);
    const args = span('validation').getByTestId('span-payload-arguments');
    await args.locator('summary').click();
    await expect(args).toContainText('"order_id": "ord_traces01"');
    const result = span('post_validation').getByTestId('span-payload-result');
    await result.locator('summary').click();
    await expect(result).toContainText('"status": "shipped"');
    await snap(page, testInfo, 'trace-allowed');

    await page.goto(`/traces/${traceIds[`${RUN}-alpha-2`]}`);
    await expect(page.getByTestId('trace-outcome-call')).toHaveText('denied');
    await expect(page.getByTestId('trace-outcome-result')).toHaveText('did not run');
  });

  await test.step("an approver's edit shows the approver's email, never a user id", async () => {
    await page.goto(`/traces/${traceIds[`${RUN}-beta-1`]}`);
    await expect(page.getByTestId('trace-outcome-call')).toHaveText('held');
    await expect(page.getByTestId('trace-outcome-approval')).toHaveText('approval approved');
    const decision = page.locator('[data-testid="trace-record"][data-kind="approval_decision"]');
    await expect(decision.getByTestId('record-policy-reason')).toHaveText(`arguments edited by approver ${APPROVER.email}`);
    await expect(decision).toContainText(APPROVER.email);
    await expect(page.getByTestId('trace-approval')).toContainText(APPROVER.email);
    await expect(page.locator('main')).not.toContainText(/user:c[a-z0-9]{6}/);
    // The edited arguments, under the approval's decision.
    const edit = page
      .locator('[data-testid="trace-span"][data-kind="approval_decision"]')
      .getByTestId('span-payload-transformed_arguments');
    await edit.locator('summary').click();
    await expect(edit).toContainText('"amount_cents": 2100');
    await snap(page, testInfo, 'trace-approved-edit');
  });

  await test.step('live: a new call appears on top without a reload, then pausing stops it', async () => {
    await page.goto(`/traces?q=${RUN}`);
    await expect(rows).toHaveCount(3);
    await page.evaluate(() => Object.assign(window, { tracesMarker: 'the same document' }));
    await page.getByTestId('traces-live-toggle').click();
    await expect(page.getByTestId('traces-live-toggle')).toHaveAttribute('aria-pressed', 'true');
    await expect(page.getByTestId('traces-live-status')).toContainText('Live: checking for new calls');
    expect((await pre(`${RUN}-live-1`, LOOKUP.id, lookupArgs)).decision).toBe('allow');
    const fresh = rows.filter({ hasText: `${RUN}-live-1` });
    await expect(fresh).toHaveCount(1, { timeout: 15_000 });
    await expect(fresh).toHaveAttribute('data-fresh', 'true');
    await expect(rows.first()).toContainText(`${RUN}-live-1`);
    await expect(page.getByTestId('traces-live-added')).toHaveText('1');
    expect(await page.evaluate(() => (window as unknown as { tracesMarker?: string }).tracesMarker)).toBe('the same document');
    await snap(page, testInfo, 'traces-live');

    await page.getByTestId('traces-live-toggle').click();
    await expect(page.getByTestId('traces-live-status')).toContainText('Paused');
    expect((await pre(`${RUN}-live-2`, LOOKUP.id, lookupArgs)).decision).toBe('allow');
    // Three polls' worth of waiting: a paused list asks nothing.
    await page.waitForTimeout(7000);
    await expect(rows.filter({ hasText: `${RUN}-live-2` })).toHaveCount(0);
    await expect(rows).toHaveCount(4);
  });

  // Leave the shared tenant as other specs expect it.
  await seedArgumentRetention({ retain: false });
});
