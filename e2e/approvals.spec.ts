import { expect, test, type APIRequestContext, type Page, type TestInfo } from '@playwright/test';
import { refundPaymentContract } from '../lib/contracts/examples';
import { seedMember } from './seed';
import { signIn } from './sign-in';
import { E2E_INIT_API_KEY } from './test-env';

// Issue 6's story end to end: an agent's risky call is held for approval, an approver sees it
// arrive in the open queue without reloading and approves it, the agent's long poll hands it
// the token, the retried call is allowed and its validate/post closes the trace, which the trace
// page shows; refused calls show up on the violations page under their codes.

const APPROVER = { email: 'queue-approver@example.com', password: 'queue-approver-password', role: 'approver' } as const;
const ADMIN = { authorization: `Bearer ${E2E_INIT_API_KEY}` };
const TOOL = refundPaymentContract.id;
const VERSION = refundPaymentContract.version;
const COMMENT = 'Duplicate charge confirmed with the customer.';

/** A policy next to the contract's own approval gate: large refunds for fraud are never for agents. */
const REFUND_GUARD = {
  id: 'refund-guard',
  version: '1.0.0',
  description: 'Large fraud refunds go to the fraud team, not to agents.',
  rules: [
    {
      id: 'no-large-fraud-refunds',
      tools: [TOOL],
      when: "args.reason == 'fraudulent' && args.amount_cents > 50000",
      decision: 'deny',
      reason: 'large fraud refunds go to the fraud team',
    },
  ],
};

const refundArgs = (amountCents: number, reason = 'duplicate') => ({
  tenant_id: 'acme',
  payment_id: 'pay_abcdefgh12',
  amount_cents: amountCents,
  reason,
});
// The end user the agent acts for is not the approver: nobody approves their own call.
const CONTEXT = { tenant_id: 'acme', user_id: 'agent-end-user', roles: ['support'], state: { payment_status: 'captured' } };

interface PreAnswer {
  decision: string;
  trace_id: string;
  errors: { code: string }[];
  approval?: { id: string; status: string; poll_url: string };
}

async function postOk(request: APIRequestContext, url: string, data: unknown, expected: number): Promise<Record<string, unknown>> {
  const response = await request.post(url, { headers: ADMIN, data });
  const body = (await response.json()) as Record<string, unknown>;
  expect(response.status(), JSON.stringify(body)).toBe(expected);
  return body;
}

async function validatePre(request: APIRequestContext, agentKey: string, body: Record<string, unknown>): Promise<PreAnswer> {
  const response = await request.post('/api/v1/validate/pre', {
    headers: { authorization: `Bearer ${agentKey}` },
    data: { tool: TOOL, context: CONTEXT, ...body },
  });
  expect(response.status()).toBe(200);
  return (await response.json()) as PreAnswer;
}

/** A full-page screenshot kept as a test artifact and listed in the report. */
async function snap(page: Page, testInfo: TestInfo, name: string) {
  const path = testInfo.outputPath(`${name}.png`);
  await page.screenshot({ path, fullPage: true });
  await testInfo.attach(name, { path, contentType: 'image/png' });
}

test('a risky call waits for an approver, who approves it live; the agent gets the token; trace and violations show it', async ({
  page,
  request,
  baseURL,
}, testInfo) => {
  // The steps take about 20 s; the budget leaves room for a sign-in that must wait out Better
  // Auth's rate limit (up to 45 s) when other specs signed in just before. Nothing here sleeps.
  test.setTimeout(120_000);
  let agentKey = '';
  let approvalId = '';
  let traceId = '';
  // Pending approvals before this test (none on a fresh database; read, so the spec's order does not matter).
  let pendingBefore = 0;
  const callId = 'e2e-refund-1';

  await test.step('setup through the API: the refund contract (approval required), a policy, an agent key', async () => {
    await postOk(request, '/api/v1/contracts', refundPaymentContract, 201);
    await postOk(request, `/api/v1/contracts/${TOOL}/versions/${VERSION}/publish`, {}, 200);
    await postOk(request, '/api/v1/policies', REFUND_GUARD, 201);
    await postOk(request, `/api/v1/policies/${REFUND_GUARD.id}/versions/${REFUND_GUARD.version}/publish`, {}, 200);
    // Created with the init (admin) key, so no person is its creator: the approver is not the requester.
    const created = await postOk(request, '/api/v1/api-keys', { name: 'refund agent', scopes: ['validate'] }, 201);
    agentKey = String(created.key);
    expect(agentKey).toMatch(/^tg_/);
  });

  await seedMember(APPROVER);
  await signIn(page.request, baseURL, APPROVER);

  await test.step('the approver opens the queue before the call exists', async () => {
    await page.goto('/approvals');
    await expect(page.getByRole('heading', { name: 'Approvals', level: 1 })).toBeVisible();
    await expect(page.getByRole('banner')).toContainText(`${APPROVER.email} approver`);
    // The badge renders once its first count has arrived.
    await expect(page.getByTestId('nav-approvals-count')).toBeVisible();
    pendingBefore = Number(await page.getByTestId('nav-approvals-count').innerText());
    await expect(page.getByTestId('pending-count')).toHaveText(`(${pendingBefore})`);
    // Survives only if the page is never reloaded: the row must arrive by the page's own polling.
    await page.evaluate(() => {
      (window as unknown as { __queueOpenedOnce?: boolean }).__queueOpenedOnce = true;
    });
  });

  // The agent's long poll, started as soon as it has an approval id and awaited after the approver acts.
  let longPoll: Promise<{ status: number; body: Record<string, unknown> }> = Promise.reject(new Error('the long poll was not started'));
  longPoll.catch(() => undefined);

  await test.step('the agent calls validate/pre on the risky tool and is told to wait for approval', async () => {
    const answer = await validatePre(request, agentKey, { call_id: callId, arguments: refundArgs(4200) });
    expect(answer.decision).toBe('require_approval');
    expect(answer.errors.map((e) => e.code)).toContain('AXAG_APPROVAL_MISSING');
    expect(answer.approval?.status).toBe('pending');
    approvalId = answer.approval?.id ?? '';
    expect(approvalId).not.toBe('');
    expect(answer.approval?.poll_url).toContain(`/api/v1/approvals/${approvalId}`);
    traceId = answer.trace_id;
    // Not awaited: the agent waits while the approver decides. The client timeout is longer
    // than the server's 30 s hold so the server, not the client, ends the wait.
    longPoll = request
      .get(`/api/v1/approvals/${approvalId}?wait=30`, { headers: { authorization: `Bearer ${agentKey}` }, timeout: 45_000 })
      .then(async (response) => ({ status: response.status(), body: (await response.json()) as Record<string, unknown> }));
    longPoll.catch(() => undefined);
  });

  await test.step('the approval appears in the open queue and the nav count without a reload', async () => {
    const row = page.locator(`[data-testid="approval-row"][data-approval-id="${approvalId}"]`);
    await expect(row).toBeVisible({ timeout: 15_000 });
    await expect(row).toHaveAttribute('data-status', 'pending');
    await expect(row).toContainText(`${TOOL}@${VERSION}`);
    await expect(row).toContainText('external');
    await expect(row).toContainText('refund agent');
    await expect(row).toContainText('agent-end-user');
    await expect(row.getByTestId('time-left')).toBeVisible();
    await expect(page.getByTestId('pending-count')).toHaveText(`(${pendingBefore + 1})`);
    await expect(page.getByTestId('nav-approvals-count')).toHaveText(String(pendingBefore + 1), { timeout: 15_000 });
    expect(await page.evaluate(() => (window as unknown as { __queueOpenedOnce?: boolean }).__queueOpenedOnce)).toBe(true);
    await snap(page, testInfo, 'approvals-pending');
  });

  await test.step('the approver approves it with a comment', async () => {
    const row = page.locator(`[data-testid="approval-row"][data-approval-id="${approvalId}"]`);
    await row.getByTestId('decision-comment').fill(COMMENT);
    await row.getByTestId('approve-button').click();
    // Decided approvals move to the history list below, with who decided and the comment.
    await expect(row).toHaveAttribute('data-status', 'approved');
    await expect(row).toContainText(COMMENT);
    await expect(row).toContainText(APPROVER.email);
    await expect(page.getByTestId('pending-count')).toHaveText(`(${pendingBefore})`);
    await expect(page.getByTestId('nav-approvals-count')).toHaveText(String(pendingBefore), { timeout: 15_000 });
    await snap(page, testInfo, 'approvals-decided');
  });

  await test.step("the agent's long poll returns the token; the retry is allowed; validate/post closes the trace", async () => {
    // One long poll, started before the approver acted, carries the decision.
    const polled = await longPoll;
    expect(polled.status).toBe(200);
    expect(polled.body).toMatchObject({
      id: approvalId,
      status: 'approved',
      outcome: 'approved',
      comment: COMMENT,
      trace_id: traceId,
      call_id: callId,
    });
    const token = polled.body.approval_token;
    expect(typeof token).toBe('string');

    const retried = await validatePre(request, agentKey, { call_id: callId, arguments: refundArgs(4200), approval_token: token });
    expect(retried.decision).toBe('allow');
    expect(retried.trace_id).toBe(traceId);

    const post = await request.post('/api/v1/validate/post', {
      headers: { authorization: `Bearer ${agentKey}` },
      data: {
        tool: TOOL,
        call_id: callId,
        arguments: refundArgs(4200),
        context: CONTEXT,
        result: { refund_id: 're_e2e_1', amount_cents: 4200 },
        side_effects: [{ id: 'money_moved' }],
        execution_ms: 1234,
      },
    });
    expect(post.status()).toBe(200);
    expect(await post.json()).toMatchObject({ decision: 'allow', valid: true, trace_id: traceId });
  });

  await test.step('refused calls: one out of range, one a policy denies', async () => {
    const outOfRange = await validatePre(request, agentKey, { call_id: 'e2e-refund-too-big', arguments: refundArgs(5_000_000) });
    expect(outOfRange.decision).toBe('deny');
    expect(outOfRange.errors.map((e) => e.code)).toContain('AXAG_OUT_OF_RANGE');
    const denied = await validatePre(request, agentKey, { call_id: 'e2e-refund-fraud', arguments: refundArgs(75_000, 'fraudulent') });
    expect(denied.decision).toBe('deny');
    expect(denied.errors.map((e) => e.code)).toContain('AXAG_POLICY_DENIED');
  });

  await test.step('the traces list shows the call, and its page shows pre, approval and post', async () => {
    await page.goto('/traces');
    const row = page.getByTestId('trace-row').filter({ hasText: callId });
    await expect(row).toHaveCount(1);
    await expect(row).toContainText(TOOL);
    await expect(row).toContainText('refund agent');
    await expect(row).toContainText('4 records');
    await snap(page, testInfo, 'traces');

    await row.getByRole('link').first().click();
    await expect(page).toHaveURL(new RegExp(`/traces/${traceId}$`));
    await expect(page.getByTestId('trace-call-id')).toHaveText(callId);
    const span = (kind: string) => page.locator(`[data-testid="trace-span"][data-kind="${kind}"]`);
    await expect(span('validation')).toHaveCount(2);
    await expect(span('approval_wait')).toHaveCount(1);
    await expect(span('approval_wait')).toContainText('approval wait (approved)');
    await expect(span('approval_decision')).toHaveCount(1);
    await expect(span('execution')).toHaveCount(1);
    await expect(span('execution')).toContainText('1.23 s');
    await expect(span('post_validation')).toHaveCount(1);
    const record = (kind: string) => page.locator(`[data-testid="trace-record"][data-kind="${kind}"]`);
    await expect(record('pre')).toHaveCount(2);
    await expect(record('approval_decision')).toHaveCount(1);
    await expect(record('post')).toHaveCount(1);
    await expect(record('pre').first()).toContainText('AXAG_APPROVAL_MISSING');
    const approval = page.getByTestId('trace-approval');
    await expect(approval).toHaveCount(1);
    await expect(approval).toContainText('approved');
    await expect(approval).toContainText(COMMENT);
    await snap(page, testInfo, 'trace');
  });

  await test.step('the violations page lists each refusal under its code', async () => {
    await page.goto('/violations');
    await expect(page.getByTestId('violations-chart').locator('svg')).toBeVisible();
    const topCodes = page.getByTestId('top-codes');
    await expect(topCodes).toContainText('AXAG_OUT_OF_RANGE');
    await expect(topCodes).toContainText('AXAG_POLICY_DENIED');
    await expect(page.getByTestId('top-tools')).toContainText(TOOL);
    await snap(page, testInfo, 'violations');

    for (const code of ['AXAG_POLICY_DENIED', 'AXAG_OUT_OF_RANGE']) {
      await topCodes.getByRole('link', { name: code }).click();
      await expect(page).toHaveURL(new RegExp(`[?&]code=${code}(&|$)`));
      const rows = page.getByTestId('violation-row');
      await expect(rows.filter({ hasText: TOOL })).not.toHaveCount(0);
      // Filtered by code: every row is that code.
      await expect(rows.filter({ hasNotText: code })).toHaveCount(0);
      await page.goto('/violations');
    }
    await page.goto('/violations?code=AXAG_POLICY_DENIED');
    await expect(page.getByTestId('violation-row').filter({ hasText: TOOL }).first()).toContainText(
      'large fraud refunds go to the fraud team',
    );
    await snap(page, testInfo, 'violations-policy-denied');
  });

  await test.step('the overview counts the calls, the refusals and the noisiest codes', async () => {
    await page.goto('/');
    await expect(page.getByRole('heading', { name: 'Overview', level: 1 })).toBeVisible();
    // At least this test's calls: four validate/pre checks, one held for approval, two refused.
    const tileValue = async (testId: string) => Number((await page.getByTestId(testId).locator('p').nth(1).innerText()).replace(/,/g, ''));
    expect(await tileValue('overview-calls')).toBeGreaterThanOrEqual(4);
    await expect(page.getByTestId('overview-calls')).toContainText('held for approval');
    expect(await tileValue('overview-refusals')).toBeGreaterThanOrEqual(2);
    expect(await tileValue('overview-pending-approvals')).toBe(pendingBefore);
    const topCodes = page.getByTestId('overview-top-codes');
    await expect(topCodes).toContainText('AXAG_OUT_OF_RANGE');
    await expect(topCodes).toContainText('AXAG_POLICY_DENIED');
    await snap(page, testInfo, 'overview');
  });
});
