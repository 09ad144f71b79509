import { expect, test, type BrowserContext, type Page } from '@playwright/test';
import { E2E_OIDC_ACCOUNTS, e2eOidcPort } from './oidc';
import { E2E_INIT_API_KEY } from './test-env';

// Sign-in with the company's identity provider, in Chromium, against a real OpenID provider
// (oidc-provider, started by e2e/global-setup.ts on loopback). Nobody joins by SSO alone: an
// invited address lands in the tenant with its role, an uninvited one is turned away.

type Login = keyof typeof E2E_OIDC_ACCOUNTS;

/** The provider and Toolgate are both on 127.0.0.1; anything else (a font the provider's page
 * links to) is refused, so the test shows SSO needs no network beyond loopback. */
async function loopbackOnly(context: BrowserContext): Promise<void> {
  await context.route(/^https?:\/\/(?!127\.0\.0\.1[:/])/, (route) => route.abort('blockedbyclient'));
}

async function invite(request: Page['request'], email: string, role: 'viewer' | 'author' | 'approver' | 'admin') {
  const response = await request.post('/api/v1/members', {
    headers: { authorization: `Bearer ${E2E_INIT_API_KEY}` },
    data: { email, role },
  });
  expect(response.status()).toBe(201);
}

async function userCount(email: string): Promise<number> {
  process.env.DATABASE_URL = `file:${process.env.TOOLGATE_E2E_DATABASE}`;
  const { db, disconnectDb } = await import('../lib/db');
  const count = await db().user.count({ where: { email } });
  await disconnectDb();
  return count;
}

/** Clicks "Sign in with SSO" and goes through the provider's own login and consent pages. */
async function signInWithSso(page: Page, login: Login): Promise<void> {
  await page.goto('/sign-in');
  await page.getByRole('button', { name: 'Sign in with SSO' }).click();
  await expect(page).toHaveURL(new RegExp(`^http://127\\.0\\.0\\.1:${e2eOidcPort()}/interaction/`));
  await page.locator('input[name="login"]').fill(login);
  await page.locator('input[name="password"]').fill('anything');
  await page.getByRole('button', { name: 'Sign-in' }).click();
  await page.getByRole('button', { name: 'Continue' }).click();
}

test.beforeEach(async ({ context }) => {
  await loopbackOnly(context);
});

test('an invited email signs in with SSO and lands in the tenant with the invited role', async ({ page }) => {
  const { email } = E2E_OIDC_ACCOUNTS['sso-author'];
  await invite(page.request, email, 'author');
  await signInWithSso(page, 'sso-author');
  await expect(page).toHaveURL(/127\.0\.0\.1:\d+\/$/);
  await expect(page.getByRole('banner')).toContainText(`${email} author`);
  await expect(page.getByRole('heading', { name: 'Overview', level: 1 })).toBeVisible();
  expect(await userCount(email)).toBe(1);
  // Their account has no Toolgate password: the account page says so and offers none to change.
  await page.goto('/account');
  await expect(page.getByTestId('no-password')).toContainText('You sign in through');
  await expect(page.getByLabel('Current password')).toHaveCount(0);
});

test('an uninvited email is refused with a page that says whom to ask, and no user is created', async ({ page }) => {
  const { email } = E2E_OIDC_ACCOUNTS['sso-stranger'];
  await signInWithSso(page, 'sso-stranger');
  await expect(page).toHaveURL(/\/sign-in\?error=sso_not_invited/);
  const refusal = page.getByRole('alert').filter({ hasText: 'Your email address has no invitation' });
  await expect(refusal).toBeVisible();
  await expect(refusal).toContainText('Ask an administrator of your Toolgate tenant to invite this exact email address');
  // Still signed out: the dashboard sends the visitor back to sign-in.
  await page.goto('/');
  await expect(page).toHaveURL(/\/sign-in$/);
  expect(await userCount(email)).toBe(0);
});

test("the highest role the person's groups map to replaces the invited one", async ({ page }) => {
  const { email } = E2E_OIDC_ACCOUNTS['sso-grouped'];
  await invite(page.request, email, 'viewer');
  await signInWithSso(page, 'sso-grouped');
  await expect(page).toHaveURL(/127\.0\.0\.1:\d+\/$/);
  await expect(page.getByRole('banner')).toContainText(`${email} approver`);
});

test('password sign-in still works beside the SSO button', async ({ page }) => {
  await page.goto('/sign-in');
  await expect(page.getByRole('button', { name: 'Sign in with SSO' })).toBeVisible();
  await expect(page.getByLabel('Password')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Sign in', exact: true })).toBeEnabled();
});
