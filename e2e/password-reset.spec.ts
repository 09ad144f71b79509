import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { expect, test } from '@playwright/test';
import { mailBodyText, startSmtpInbox } from '../lib/testing/smtp-inbox';
import { startSecondInstance } from './second-instance';
import { seedMember } from './seed';
import { signIn } from './sign-in';

// A person who forgot their password (here an admin, who has no one to ask inside Toolgate):
// the operator runs `toolgate members reset-password` beside the server, passes the link on, and
// the person sets a new password in the browser and lands signed in; a browser still signed in
// with the old password is signed out.

const PERSON = { email: 'forgetful-admin@example.com', password: 'the-forgotten-password' } as const;
const NEW_PASSWORD = 'a-remembered-passphrase';

async function resetLink(baseURL: string): Promise<string> {
  const { stdout } = await promisify(execFile)(process.execPath, ['bin/toolgate.mjs', 'members', 'reset-password', PERSON.email], {
    env: {
      ...process.env,
      DATABASE_URL: `file:${process.env.TOOLGATE_E2E_DATABASE}`,
      TOOLGATE_PUBLIC_URL: baseURL,
      NEXT_TELEMETRY_DISABLED: '1',
    },
    timeout: 60_000,
  });
  const link = /\s(http\S+\/reset-password\/[A-Za-z0-9_-]{43})\n/.exec(stdout)?.[1];
  expect(link, stdout).toBeTruthy();
  return link as string;
}

test('the operator makes a reset link; the person sets a new password from it and every old session ends', async ({
  page,
  browser,
  baseURL,
}) => {
  test.setTimeout(120_000);
  await seedMember({ ...PERSON, role: 'admin' });
  const elsewhere = await browser.newContext({ baseURL });
  await signIn(elsewhere.request, baseURL, PERSON);
  expect((await elsewhere.request.get('/api/v1/session/tenants')).status()).toBe(200);

  // This instance sends no mail: the sign-in page's link says who can help.
  await page.goto('/sign-in');
  await page.getByRole('link', { name: 'Forgot your password?' }).click();
  await expect(page.getByTestId('operator-reset-note')).toContainText('toolgate members reset-password');

  const link = await resetLink(baseURL as string);
  await page.goto(link);
  await expect(page.getByRole('heading', { name: 'Set a new password' })).toBeVisible();
  await expect(page.getByText(PERSON.email)).toBeVisible();

  await page.getByLabel('New password', { exact: true }).fill(NEW_PASSWORD);
  await page.getByLabel('New password again').fill('not-the-same-passphrase');
  await page.getByRole('button', { name: 'Set password and sign in' }).click();
  await expect(page.locator('form').getByRole('alert')).toHaveText('The two passwords differ.');

  await page.getByLabel('New password', { exact: true }).fill('password123');
  await page.getByLabel('New password again').fill('password123');
  await page.getByRole('button', { name: 'Set password and sign in' }).click();
  await expect(page.locator('form').getByRole('alert')).toContainText('one of the most commonly used passwords');

  await page.getByLabel('New password', { exact: true }).fill(NEW_PASSWORD);
  await page.getByLabel('New password again').fill(NEW_PASSWORD);
  await page.getByRole('button', { name: 'Set password and sign in' }).click();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByText(PERSON.email)).toBeVisible();

  // The browser signed in with the old password is signed out.
  expect((await elsewhere.request.get('/api/v1/session/tenants')).status()).toBe(401);
  await elsewhere.close();

  // The link worked once.
  await page.goto(link);
  await expect(page.getByTestId('password-reset-problem')).toHaveText('This password reset link has already been used');
});

test('on an instance that sends mail, "Forgot your password?" mails a link that sets a new password', async ({ browser, baseURL }) => {
  test.setTimeout(180_000);
  const who = { email: 'mailed-forgetful@example.com', password: 'another-forgotten-password' };
  await seedMember({ ...who, role: 'viewer' });
  const smtp = await startSmtpInbox();
  const port = Number(new URL(baseURL as string).port) + 9;
  const instance = await startSecondInstance({
    publicUrl: `http://127.0.0.1:${port}`,
    port,
    env: { TOOLGATE_SMTP_URL: `smtp://mailer:mail-secret@127.0.0.1:${smtp.port}`, TOOLGATE_MAIL_FROM: 'Toolgate <noreply@e2e.test>' },
  });
  const context = await browser.newContext({ baseURL: instance.url });
  try {
    const page = await context.newPage();
    await page.goto('/sign-in');
    await page.getByRole('link', { name: 'Forgot your password?' }).click();
    await page.waitForURL('**/forgot-password');
    await page.waitForLoadState('networkidle');
    await page.getByLabel('Email').fill(who.email.toUpperCase());
    await page.getByRole('button', { name: 'Mail me a link' }).click();
    await expect(page.getByRole('status')).toContainText('If an account with a password has this address');

    await expect.poll(() => smtp.inbox.filter((m) => m.to.includes(who.email)).length, { timeout: 30_000 }).toBe(1);
    const text = mailBodyText(smtp.inbox.find((m) => m.to.includes(who.email))?.raw ?? '');
    const link = /(http:\/\/127\.0\.0\.1:\d+\/reset-password\/[A-Za-z0-9_-]{43})/.exec(text)?.[1];
    expect(link, text).toBeTruthy();

    await page.goto(link as string);
    await page.getByLabel('New password', { exact: true }).fill(NEW_PASSWORD);
    await page.getByLabel('New password again').fill(NEW_PASSWORD);
    await page.getByRole('button', { name: 'Set password and sign in' }).click();
    await expect(page).toHaveURL(/\/$/);
    await expect(page.getByText(who.email)).toBeVisible();
  } finally {
    await context.close();
    await instance.stop();
    await smtp.close();
  }
});
