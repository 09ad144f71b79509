import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { expect, test, type Locator, type Page, type TestInfo } from '@playwright/test';
import { signIn } from './sign-in';

// A tenant of its own with violations over the last days, seeded at known times (the gate
// stamps the current time, so a history can only be seeded): the violations page draws it in
// more than one bar with an axis that reads, offers every code whole, clamps long messages; the
// overview splits the last hour by kind, calls the policy spike out, and links each kind to its
// violations.

const MEMBER = { email: `violations-${randomBytes(4).toString('hex')}@example.com`, password: 'violations-e2e-password' };
const LONG_CODE = 'AXAG_POLICY_TRANSFORM_INVALID';
const LONG_MESSAGE =
  'Argument "order_id" must match the pattern ^ord_[a-z0-9]{6,}$ (an order id as the shop prints it on the receipt); ' +
  'the agent sent "BAD", which looks like a placeholder rather than an id read from the conversation. Ask the user for ' +
  'the order id, or look the order up by e-mail first, then call again with the id exactly as it was given.';
const POLICY_CODES = new Set(['AXAG_RATE_LIMITED', LONG_CODE]);

test.beforeAll(async () => {
  process.env.DATABASE_URL = `file:${process.env.TOOLGATE_E2E_DATABASE}`;
  // Imported late so DATABASE_URL is set before the client is created.
  const { disconnectDb } = await import('../lib/db');
  const { createTenant } = await import('../lib/tenants/create-tenant');
  const { addMember } = await import('../lib/tenants/add-member');
  const { seedEvidenceAt } = await import('../lib/overview/seed-evidence-at');
  type Seeded = Parameters<typeof seedEvidenceAt>[1][number];
  const tenant = await createTenant({ slug: `violations-${randomBytes(4).toString('hex')}`, name: 'Violations e2e' });
  await addMember({ tenantId: tenant.id, ...MEMBER, role: 'admin' });
  const now = Date.now();
  const ago = (hours: number) => new Date(now - hours * 3_600_000);
  const times = (n: number, record: Seeded): Seeded[] => Array.from({ length: n }, () => record);
  const mistake = (at: Date): Seeded => ({
    at,
    decision: 'deny',
    codes: ['AXAG_PATTERN_MISMATCH'],
    tool: 'orders.lookup',
    message: LONG_MESSAGE,
  });
  const limited = (at: Date): Seeded => ({ at, decision: 'deny', codes: ['AXAG_RATE_LIMITED'], tool: 'orders.lookup' });
  await seedEvidenceAt(tenant.id, [
    // One to five days ago: a bar a day.
    ...[5, 4, 3, 2, 1].flatMap((days) => [mistake(ago(days * 24 + 2)), mistake(ago(days * 24 + 2)), limited(ago(days * 24 + 2))]),
    // A message on two short lines: nothing clamped, so no "Show all".
    {
      at: ago(3 * 24 + 2),
      kind: 'post',
      decision: 'deny',
      codes: ['AXAG_POSTCONDITION_FAILED'],
      tool: 'orders.lookup',
      message: 'The result names another order.\nLook it up again with the id the user gave.',
    },
    // The same hour yesterday: one policy refusal.
    limited(ago(24 + 1 / 6)),
    // The last day, at several hours.
    ...[20, 10, 5].map((hours) => mistake(ago(hours))),
    // The last hour: seven policy refusals (a spike against one), two agent mistakes, a hold, a tool failure.
    ...times(6, limited(ago(1 / 6))),
    {
      at: ago(1 / 6),
      decision: 'deny',
      codes: [LONG_CODE],
      tool: 'orders.lookup',
      message: 'The transform wrote an argument the contract does not allow.',
    },
    ...times(2, { at: ago(1 / 6), decision: 'deny', codes: ['AXAG_MISSING_PARAM'], tool: 'payments.refund' }),
    { at: ago(1 / 6), decision: 'require_approval', codes: ['AXAG_APPROVAL_MISSING'], tool: 'payments.refund' },
    { at: ago(1 / 6), kind: 'post', decision: 'deny', codes: ['AXAG_OUTPUT_MISMATCH'], tool: 'orders.lookup' },
  ]);
  await disconnectDb();
});

async function snap(page: Page, testInfo: TestInfo, name: string) {
  const path = testInfo.outputPath(`${name}.png`);
  await page.screenshot({ path, fullPage: true });
  await testInfo.attach(name, { path, contentType: 'image/png' });
}

async function yTicks(page: Page): Promise<string[]> {
  return page.getByTestId('violations-chart').getByTestId('violations-chart-y-tick').allTextContents();
}

/** Whether a select is wide enough for the text of its longest option, in its own font. */
async function fitsLongestOption(select: Locator): Promise<{ fits: boolean; longest: string; text: number; room: number }> {
  // A streamed page may hold the filters in a hidden chunk for a moment after load, where the
  // select is 0 px wide (a CI run measured room -28): measure once it is shown.
  await expect(select).toBeVisible();
  return select.evaluate((element) => {
    const el = element as HTMLSelectElement;
    const style = getComputedStyle(el);
    const context = document.createElement('canvas').getContext('2d') as CanvasRenderingContext2D;
    context.font = `${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
    const texts = [...el.options].map((o) => o.text);
    const longest = texts.reduce((a, b) => (context.measureText(b).width > context.measureText(a).width ? b : a), '');
    const text = context.measureText(longest).width;
    // The content box, less the arrow's room on the right.
    const room = el.clientWidth - parseFloat(style.paddingLeft) - 16;
    return { fits: text <= room, longest, text, room };
  });
}

test('violations: an axis that reads, days and hours as bars, every code whole, long messages clamped, a filter by kind', async ({
  page,
  baseURL,
}, testInfo) => {
  await signIn(page.request, baseURL, MEMBER);
  await page.setViewportSize({ width: 1440, height: 1000 });

  await test.step('the default week is drawn a day a bar, with distinct whole-number ticks', async () => {
    await page.goto('/violations');
    const chart = page.getByTestId('violations-chart');
    await expect(chart).toHaveAttribute('data-bucket', 'day');
    expect(await chart.getByTestId('violations-chart-bar').count()).toBeGreaterThanOrEqual(6);
    const ticks = await yTicks(page);
    expect(ticks[0]).toBe('0');
    expect(ticks.every((t) => /^\d[\d,]*$/.test(t))).toBe(true);
    expect(new Set(ticks).size).toBe(ticks.length);
    await snap(page, testInfo, 'violations-week-1440');
  });

  await test.step('the last 24 hours are drawn an hour a bar', async () => {
    await page.getByLabel('Time').selectOption('24h');
    await page.getByRole('button', { name: 'Apply' }).click();
    await expect(page).toHaveURL(/range=24h/);
    const chart = page.getByTestId('violations-chart');
    await expect(chart).toHaveAttribute('data-bucket', 'hour');
    expect(await chart.getByTestId('violations-chart-bar').count()).toBeGreaterThanOrEqual(4);
    // Asked for, the week is drawn by the hour as well.
    await page.goto('/violations?range=7d&bucket=hour');
    await expect(chart).toHaveAttribute('data-bucket', 'hour');
    await page.getByTestId('violations-chart-bucket').getByRole('link', { name: 'per day' }).click();
    await expect(chart).toHaveAttribute('data-bucket', 'day');
  });

  await test.step('a code seen once reads 0 and 1 on the axis, and the code filter shows it whole', async () => {
    await page.goto(`/violations?code=${LONG_CODE}`);
    await expect(page.getByTestId('violation-row')).toHaveCount(1);
    expect(await yTicks(page)).toEqual(['0', '1']);
    const select = page.getByTestId('violations-code-filter');
    await expect(select).toHaveValue(LONG_CODE);
    const fit = await fitsLongestOption(select);
    expect(fit.longest.length).toBeGreaterThanOrEqual(LONG_CODE.length);
    expect(fit.fits, JSON.stringify(fit)).toBe(true);
    await expect(select.locator('optgroup[label="Policy refusals"] option', { hasText: 'AXAG_RATE_LIMITED' })).toHaveCount(1);
  });

  await test.step('a long message is clamped in a wide column, and shown whole on request', async () => {
    await page.goto('/violations?code=AXAG_PATTERN_MISMATCH');
    const row = page.getByTestId('violation-row').first();
    const cell = row.getByTestId('violation-message');
    // A streamed page may hold the rows in a hidden chunk for a moment after load: measure once shown.
    await expect(cell).toBeVisible();
    expect((await cell.boundingBox())?.width ?? 0).toBeGreaterThanOrEqual(400);
    const more = cell.getByRole('button', { name: 'Show all' });
    await expect(more).toHaveAttribute('aria-expanded', 'false');
    const clamped = (await cell.boundingBox())?.height ?? 0;
    await more.click();
    await expect(cell.getByRole('button', { name: 'Show less' })).toHaveAttribute('aria-expanded', 'true');
    expect((await cell.boundingBox())?.height ?? 0).toBeGreaterThan(clamped);
    await expect(cell).toContainText('exactly as it was given.');
    await snap(page, testInfo, 'violations-messages-1440');

    // Two short lines fit the clamp: the whole message shows, with no button that would open nothing.
    await page.goto('/violations?code=AXAG_POSTCONDITION_FAILED');
    const short = page.getByTestId('violation-row').first().getByTestId('violation-message');
    await expect(short).toContainText('Look it up again with the id the user gave.');
    await expect(short.getByRole('button', { name: 'Show all' })).toHaveCount(0);
  });

  await test.step('the kind filter lists only that kind', async () => {
    await page.goto('/violations');
    await page.getByLabel('Kind').selectOption('policy');
    await page.getByRole('button', { name: 'Apply' }).click();
    await expect(page).toHaveURL(/kind=policy/);
    const rows = page.getByTestId('violation-row');
    await expect(rows).toHaveCount(13);
    await expect(rows.filter({ hasNotText: 'Policy refusals' })).toHaveCount(0);
    const codes = await rows.getByTestId('violation-code').allTextContents();
    expect(codes).toHaveLength(13);
    expect(codes.filter((code) => !POLICY_CODES.has(code))).toEqual([]);
  });

  await test.step("the CSV export downloads the rows the filtered page shows, of the page's tenant", async () => {
    const link = page.getByTestId('violations-csv');
    await expect(link).toHaveAttribute('href', /[?&]tenant_id=/);
    const [download] = await Promise.all([page.waitForEvent('download'), link.click()]);
    expect(download.suggestedFilename()).toMatch(/^violations-.*\.csv$/);
    const lines = (await readFile(await download.path(), 'utf8')).trim().split('\n');
    expect(lines).toHaveLength(14);
    expect(lines.slice(1).filter((line) => ![...POLICY_CODES].some((code) => line.includes(code)))).toEqual([]);
  });

  await test.step('at 1024 px the code filter still fits and the table does not scroll sideways', async () => {
    await page.setViewportSize({ width: 1024, height: 900 });
    await page.goto(`/violations?code=${LONG_CODE}`);
    const fit = await fitsLongestOption(page.getByTestId('violations-code-filter'));
    expect(fit.fits, JSON.stringify(fit)).toBe(true);
    await page.goto('/violations');
    // The top codes show the long code whole, wrapped if need be.
    const topCode = page.getByTestId('top-codes').getByRole('link', { name: LONG_CODE });
    expect(await topCode.evaluate((el) => el.scrollWidth <= el.clientWidth && el.textContent === el.getAttribute('title'))).toBe(true);
    const table = page.getByTestId('violation-row').first().locator('xpath=ancestor::div[contains(@class, "overflow-x-auto")]');
    expect(await table.evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);
    await expect(page.getByTestId('violation-message').first()).toBeVisible();
    expect((await page.getByTestId('violation-message').first().boundingBox())?.width ?? 0).toBeGreaterThanOrEqual(260);
    await snap(page, testInfo, 'violations-week-1024');
  });
});

test('overview: the last hour by kind against the same hour yesterday, the spike called out, each kind a link to its violations', async ({
  page,
  baseURL,
}, testInfo) => {
  await signIn(page.request, baseURL, MEMBER);
  await page.setViewportSize({ width: 1440, height: 1000 });
  await page.goto('/');
  await expect(page.getByRole('heading', { name: 'Overview', level: 1 })).toBeVisible();

  const expected = {
    arguments: ['Agent mistakes', 2, 0],
    policy: ['Policy refusals', 7, 1],
    approval: ['Approval holds', 1, 0],
    tool: ['Tool failures', 1, 0],
  };
  for (const [kind, [label, hour, before]] of Object.entries(expected)) {
    const row = page.getByTestId(`overview-kind-${kind}`);
    await expect(row.getByRole('link', { name: String(label) })).toHaveAttribute('href', `/violations?kind=${kind}&range=24h`);
    await expect(page.getByTestId(`overview-hour-${kind}`)).toHaveText(String(hour));
    await expect(page.getByTestId(`overview-hour-${kind}-before`)).toHaveText(String(before));
  }
  // The spike is said in words, beside the kind and at the top of the page.
  await expect(page.getByTestId('overview-kind-policy-spike')).toHaveText(/spike/);
  await expect(page.getByTestId('overview-kind-arguments-spike')).toHaveCount(0);
  await expect(page.getByTestId('overview-spikes')).toContainText('Policy refusals: 7× the same hour yesterday (7 against 1)');
  // Holds are counted by kind, not among the noisiest codes.
  await expect(page.getByTestId('overview-top-codes')).toContainText('AXAG_RATE_LIMITED');
  await expect(page.getByTestId('overview-top-codes')).not.toContainText('AXAG_APPROVAL_MISSING');
  await snap(page, testInfo, 'overview-kinds-1440');
  await page.setViewportSize({ width: 1024, height: 900 });
  await snap(page, testInfo, 'overview-kinds-1024');

  await page.getByTestId('overview-kind-policy').getByRole('link', { name: 'Policy refusals' }).click();
  await expect(page).toHaveURL(/\/violations\?kind=policy&range=24h$/);
  await expect(page.getByLabel('Kind')).toHaveValue('policy');
  await expect(page.getByTestId('violations-chart')).toHaveAttribute('data-bucket', 'hour');
  const rows = page.getByTestId('violation-row');
  await expect(rows).toHaveCount(7);
  await expect(rows.filter({ hasNotText: 'Policy refusals' })).toHaveCount(0);
  await page.goBack();
  await page.getByTestId('overview-kind-tool').getByRole('link', { name: 'Tool failures' }).click();
  await expect(page.getByTestId('violation-row')).toHaveCount(1);
  await expect(page.getByTestId('violation-row')).toContainText('AXAG_OUTPUT_MISMATCH');
});

test('an agent’s tool name and message with direction-changing characters are shown with them revealed, on violations and traces', async ({
  page,
  baseURL,
}) => {
  const member = { email: `hidden-${randomBytes(4).toString('hex')}@example.com`, password: 'violations-hidden-password' };
  process.env.DATABASE_URL = `file:${process.env.TOOLGATE_E2E_DATABASE}`;
  const { disconnectDb } = await import('../lib/db');
  const { createTenant } = await import('../lib/tenants/create-tenant');
  const { addMember } = await import('../lib/tenants/add-member');
  const { seedEvidenceAt } = await import('../lib/overview/seed-evidence-at');
  const tenant = await createTenant({ slug: `hidden-${randomBytes(4).toString('hex')}`, name: 'Hidden characters e2e' });
  await addMember({ tenantId: tenant.id, ...member, role: 'admin' });
  // "\u202Etxt.exe" draws as "exe.txt" in most renderers.
  await seedEvidenceAt(tenant.id, [
    {
      at: new Date(Date.now() - 600_000),
      decision: 'deny',
      codes: ['AXAG_UNKNOWN_TOOL'],
      tool: '\u202Etxt.exe',
      message: 'Tool "\u202Etxt.exe" has no published contract in this tenant.',
    },
  ]);
  await disconnectDb();
  await signIn(page.request, baseURL, member);

  await page.goto('/violations');
  const row = page.getByTestId('violation-row').first();
  await expect(row.getByTestId('violation-tool')).toHaveText('<U+202E>txt.exe');
  await expect(row.getByTestId('violation-message')).toContainText('Tool "<U+202E>txt.exe" has no published contract');
  expect(await row.innerText()).not.toContain('\u202E');

  await page.goto('/traces');
  const trace = page.getByTestId('trace-row').first();
  await expect(trace).toContainText('<U+202E>txt.exe');
  expect(await trace.innerText()).not.toContain('\u202E');
});
