import http from 'node:http';
import { expect, test, type APIResponse, type Page } from '@playwright/test';
import Database from 'better-sqlite3';
import { startSecondInstance } from './second-instance';
import { signIn } from './sign-in';
import { E2E_ADMIN, E2E_INIT_API_KEY } from './test-env';

// The HTTP boundary in a real browser against the built server: framing and content headers,
// no framing by another site, cross-site server actions refused, the studio working under the CSP.

const EVIL = 'http://evil.example';
const ADMIN_KEY = { authorization: `Bearer ${E2E_INIT_API_KEY}` };

function expectSecurityHeaders(response: APIResponse, csp: RegExp) {
  const headers = response.headers();
  expect(headers['content-security-policy']).toMatch(csp);
  expect(headers['content-security-policy']).toContain("frame-ancestors 'none'");
  expect(headers['x-frame-options']).toBe('DENY');
  expect(headers['x-content-type-options']).toBe('nosniff');
  expect(headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
}

async function keyNames(page: Page): Promise<string[]> {
  const response = await page.request.get('/api/v1/api-keys', { headers: ADMIN_KEY });
  expect(response.status()).toBe(200);
  return ((await response.json()) as { api_keys: { name: string }[] }).api_keys.map((key) => key.name);
}

test('pages and API answers carry the framing and content headers; wrong methods answer 405 with Allow', async ({ request }) => {
  const page = await request.get('/sign-in');
  expect(page.status()).toBe(200);
  expectSecurityHeaders(page, /^default-src 'self'; /);

  // Served by Next, and by the data-plane server in the same process.
  const document = await request.get('/api/v1/openapi.json');
  expect(document.status()).toBe(200);
  expectSecurityHeaders(document, /^default-src 'none'; frame-ancestors 'none'$/);
  const validated = await request.post('/api/v1/validate/pre', {
    headers: ADMIN_KEY,
    data: { tool: 'nope.nope', call_id: 'sec-1', arguments: {}, context: {} },
  });
  expect(validated.status()).toBe(200);
  expectSecurityHeaders(validated, /^default-src 'none'; frame-ancestors 'none'$/);

  for (const [method, path, allow] of [
    ['DELETE', '/api/v1/contracts', 'GET, HEAD, POST, OPTIONS'],
    ['PUT', '/api/v1/validate/pre', 'POST, OPTIONS'],
    ['GET', '/api/v1/approvals/apr_1/decision', 'POST, OPTIONS'],
  ] as const) {
    const wrong = await request.fetch(path, { method, headers: ADMIN_KEY });
    expect(wrong.status(), `${method} ${path}`).toBe(405);
    expect(wrong.headers().allow, `${method} ${path}`).toBe(allow);
    expect((await wrong.json()).error.code).toBe('method_not_allowed');
    expectSecurityHeaders(wrong, /frame-ancestors 'none'/);
  }
});

test('another site cannot frame a page', async ({ page, baseURL }) => {
  // The attacker's page, served to the browser under another origin (no network involved).
  await page.route(`${EVIL}/**`, (route) =>
    route.fulfill({
      contentType: 'text/html',
      body: `<h1>win a prize</h1><iframe id="victim" src="${baseURL}/sign-in" width="800" height="600"></iframe>`,
    }),
  );
  await page.goto(`${EVIL}/prize`);
  await expect(page.getByRole('heading', { name: 'win a prize' })).toBeVisible();
  // Chromium replaces a frame refused by frame-ancestors with its own error document.
  await expect
    .poll(() =>
      page
        .frames()
        .find((frame) => frame !== page.mainFrame())
        ?.url(),
    )
    .toMatch(/^chrome-error:/);
  await expect(page.frameLocator('#victim').getByLabel('Password')).toHaveCount(0);
  // The same page opened directly has the form: the frame was refused, not broken.
  await page.goto('/sign-in');
  await expect(page.getByLabel('Password')).toBeVisible();
});

test("a cross-site server action with the admin's cookie changes nothing", async ({ page, baseURL }) => {
  await signIn(page.request, baseURL, E2E_ADMIN);
  await page.goto('/api-keys');

  // The real server action the Create key form posts (its action id and body), kept unsent.
  let captured: { headers: Record<string, string>; body: Buffer } | undefined;
  await page.route('**/api-keys', async (route) => {
    const sent = route.request();
    if (sent.method() !== 'POST' || !sent.headers()['next-action']) return route.continue();
    captured = { headers: sent.headers(), body: sent.postDataBuffer() ?? Buffer.alloc(0) };
    return route.abort();
  });
  await page.getByLabel('Name').fill('server-action-replay');
  await page.getByRole('button', { name: 'Create key' }).click();
  await expect.poll(() => captured !== undefined).toBe(true);
  await page.unroute('**/api-keys');
  const action = captured as NonNullable<typeof captured>;
  expect(action.headers['next-action']).toMatch(/^[0-9a-f]{20,}$/);

  const replay = (headers: Record<string, string>) =>
    page.request.post('/api-keys', {
      headers: {
        'next-action': action.headers['next-action'] as string,
        'next-router-state-tree': action.headers['next-router-state-tree'] ?? '',
        'content-type': action.headers['content-type'] as string,
        accept: 'text/x-component',
        ...headers,
      },
      data: action.body,
    });

  for (const headers of [{ origin: EVIL }, { origin: 'null' }, { 'sec-fetch-site': 'cross-site' }, {}] as Record<string, string>[]) {
    const forged = await replay(headers);
    expect(forged.status(), JSON.stringify(headers)).toBe(403);
    expect((await forged.json()).error.code).toBe('cross_site_request');
  }
  expect(await keyNames(page)).not.toContain('server-action-replay');

  // The same request from the instance's own origin is obeyed: the refusals above were the rule.
  const own = await replay({ origin: new URL(baseURL ?? '').origin });
  expect(own.status()).toBe(200);
  expect(await keyNames(page)).toContain('server-action-replay');
});

test("the studio's editor and its workers run under the CSP without a violation", async ({ page, baseURL }) => {
  const violations: string[] = [];
  page.on('console', (message) => {
    if (/Content[ -]Security[ -]Policy|violates the following/i.test(message.text())) violations.push(message.text());
  });
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (event) =>
      console.error(`Content-Security-Policy violation: ${event.violatedDirective} ${event.blockedURI}`),
    );
  });
  await signIn(page.request, baseURL, E2E_ADMIN);
  await page.goto('/contracts/new');
  await page.getByRole('link', { name: /Read-only query/ }).click();
  await expect(page.getByTestId('studio-editor').locator('.monaco-editor')).toBeVisible();
  // The lint worker answered, and Monaco's JSON worker gives hover docs.
  await expect(page.getByTestId('problems-panel')).toContainText(/Checked in the browser in \d+ ms/);
  await page
    .getByTestId('studio-editor')
    .locator('.view-line span', { hasText: /^"version"$/ })
    .hover();
  await expect(page.locator('.monaco-hover').filter({ hasText: 'Semantic version of this contract' })).toBeVisible();
  // The policy and surface studios: the same editor and lint worker, and the prompt pane.
  for (const path of ['/policies/new', '/surfaces/new']) {
    await page.goto(path);
    await expect(page.getByTestId('studio-editor').locator('.monaco-editor')).toBeVisible();
    await expect(page.getByTestId('problems-panel')).toContainText(/Checked in the browser in \d+ ms/);
  }
  await expect(page.getByTestId('studio-prompt-editor').locator('.monaco-editor')).toBeVisible();
  expect(violations).toEqual([]);
});

/** A sign-in sent from a loopback address of our choosing (each is another caller to the server). */
function signInFrom(
  localAddress: string,
  baseURL: string,
  password: string,
  headers: Record<string, string> = {},
  origin = baseURL,
): Promise<number> {
  const url = new URL('/api/auth/sign-in/email', baseURL);
  return new Promise((resolve, reject) => {
    const req = http.request(
      url,
      { method: 'POST', localAddress, headers: { 'content-type': 'application/json', origin, ...headers } },
      (res) => {
        res.resume();
        res.once('end', () => resolve(res.statusCode ?? 0));
      },
    );
    req.once('error', reject);
    req.end(JSON.stringify({ email: E2E_ADMIN.email, password }));
  });
}

test('password guesses are limited per caller: a forged X-Forwarded-For does not reset the count, and another caller is not locked out', async ({
  baseURL,
}) => {
  const base = baseURL as string;
  // Better Auth allows 3 sign-ins per 10 s from one caller. It read the caller from
  // X-Forwarded-For, so a new value per guess was never limited; and without the header it
  // counted every caller in one bucket, so three wrong guesses from anyone locked everyone out.
  const guesses: number[] = [];
  for (let i = 1; i <= 5; i++)
    guesses.push(await signInFrom('127.0.0.2', base, 'wrong-password', { 'x-forwarded-for': `198.51.100.${i}` }));
  expect(guesses).toEqual([401, 401, 401, 429, 429]);
  expect(await signInFrom('127.0.0.3', base, E2E_ADMIN.password)).toBe(200);
  expect(await signInFrom('127.0.0.2', base, E2E_ADMIN.password)).toBe(429);
});

test('password guesses are counted across instances: a caller cannot spread them over the instances behind a load balancer', async ({
  baseURL,
}) => {
  test.setTimeout(120_000);
  const base = baseURL as string;
  const second = await startSecondInstance({ publicUrl: base, port: Number(new URL(base).port) + 7 });
  try {
    // Better Auth kept its count in each instance's memory: two guesses here and two there were
    // four guesses in 10 s where one instance allows three, and N instances allowed 3N.
    const guesses = [
      await signInFrom('127.0.0.4', base, 'wrong-password'),
      await signInFrom('127.0.0.4', base, 'wrong-password'),
      await signInFrom('127.0.0.4', second.url, 'wrong-password', {}, base),
      await signInFrom('127.0.0.4', second.url, 'wrong-password', {}, base),
      await signInFrom('127.0.0.4', base, 'wrong-password'),
    ];
    expect(guesses).toEqual([401, 401, 401, 429, 429]);
    expect(await signInFrom('127.0.0.4', second.url, E2E_ADMIN.password, {}, base)).toBe(429);
    expect(await signInFrom('127.0.0.5', second.url, E2E_ADMIN.password, {}, base)).toBe(200);
  } finally {
    await second.stop();
  }
});

test('a path under /api/auth that nothing serves is not found and counted nowhere: no rate-limit row for it', async ({ request }) => {
  // Better Auth counts a request against its limit (a database row per address and path) before
  // it routes it: a new path per request was a new row, and a write, each.
  for (let i = 0; i < 5; i++) {
    const response = await request.get(`/api/auth/nothing-here-${i}`);
    expect(response.status()).toBe(404);
    expect(((await response.json()) as { error: { code: string } }).error.code).toBe('not_found');
  }
  expect((await request.get('/api/auth/get-session')).status()).toBe(200);
  const database = new Database(process.env.TOOLGATE_E2E_DATABASE as string, { readonly: true });
  try {
    const keys = (database.prepare('SELECT "key" FROM "RateLimit"').all() as { key: string }[]).map((row) => row.key.split('|')[1]);
    expect(keys).toContain('/get-session');
    expect(keys.filter((key) => key?.startsWith('/nothing-here'))).toEqual([]);
  } finally {
    database.close();
  }
});

test('a password form submitted before its script runs (slow network, script blocked) never puts the password in the URL', async ({
  browser,
}) => {
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  const seen: string[] = [];
  const failed: string[] = [];
  page.on('request', (request) => seen.push(request.url()));
  page.on('response', (response) => {
    if (response.status() >= 500) failed.push(`${response.status()} ${response.request().method()} ${response.url()}`);
  });
  for (const path of ['/sign-in', `/reset-password/${'A'.repeat(43)}`]) {
    await page.goto(path);
    const form = page.locator('form').filter({ has: page.locator('input[type=password]') });
    if ((await form.count()) === 0) continue;
    await form.locator('input[type=email]').fill(E2E_ADMIN.email);
    await form.locator('input[type=password]').fill('typed-before-hydration');
    await form.locator('button[type=submit]').click();
    await page.waitForLoadState('load');
  }
  expect(seen.filter((url) => url.includes('typed-before-hydration'))).toEqual([]);
  expect(failed).toEqual([]);
  await context.close();
});
