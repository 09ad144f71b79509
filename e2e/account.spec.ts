import { expect, test } from '@playwright/test';
import { seedMember } from './seed';
import { signIn } from './sign-in';

// A person changes their own password on /account (the demo admin's printed password, say):
// the current one is checked, the new one meets the policy, and their other sessions end.

const PERSON = { email: 'account-owner@example.com', password: 'the-first-password' } as const;
const NEW_PASSWORD = 'a-memorable-passphrase';

test('a person signs out their other sessions and changes their password from the account page', async ({ page, browser, baseURL }) => {
  test.setTimeout(90_000);
  await seedMember({ ...PERSON, role: 'viewer' });
  const elsewhere = await browser.newContext({ baseURL });
  await signIn(elsewhere.request, baseURL, PERSON);
  await signIn(page.request, baseURL, PERSON);

  await page.goto('/');
  await page.getByRole('link', { name: PERSON.email }).click();
  await expect(page.getByRole('heading', { name: 'Your account', level: 1 })).toBeVisible();
  await expect(page.getByTestId('account-email')).toHaveText(PERSON.email);

  // Signed in in another browser too: the page counts it, and ends it on request.
  await expect(page.getByTestId('account-sessions')).toHaveText(
    'You are signed in here and in 1 other session (other browsers or devices).',
  );
  await page.getByRole('button', { name: 'Sign out my other sessions' }).click();
  await expect(page.getByTestId('sign-out-others-result')).toHaveText('Signed out everywhere else.');
  await expect(page.getByTestId('account-sessions')).toHaveText('You are signed in here only.');
  await expect(page.getByRole('button', { name: 'Sign out my other sessions' })).toBeDisabled();
  expect((await elsewhere.request.get('/api/v1/session/tenants')).status()).toBe(401);
  await signIn(elsewhere.request, baseURL, PERSON);

  const form = page.locator('form').filter({ has: page.getByLabel('Current password') });

  await form.getByLabel('Current password').fill('not-my-password');
  await form.getByLabel('New password', { exact: true }).fill(NEW_PASSWORD);
  await form.getByLabel('New password again').fill(NEW_PASSWORD);
  await form.getByRole('button', { name: 'Change password' }).click();
  await expect(form.getByRole('alert')).toHaveText('The current password is wrong.');

  await form.getByLabel('Current password').fill(PERSON.password);
  await form.getByLabel('New password', { exact: true }).fill('qwertyuiop');
  await form.getByLabel('New password again').fill('qwertyuiop');
  await form.getByRole('button', { name: 'Change password' }).click();
  await expect(form.getByRole('alert')).toContainText('one of the most commonly used passwords');

  await form.getByLabel('New password', { exact: true }).fill(NEW_PASSWORD);
  await form.getByLabel('New password again').fill(NEW_PASSWORD);
  await form.getByRole('button', { name: 'Change password' }).click();
  await expect(form.getByRole('status')).toHaveText('Password changed. Your other sessions are signed out.');

  // This browser stays signed in; the other is signed out; the new password signs in.
  await page.reload();
  await expect(page.getByTestId('account-email')).toHaveText(PERSON.email);
  expect((await elsewhere.request.get('/api/v1/session/tenants')).status()).toBe(401);
  await signIn(elsewhere.request, baseURL, { email: PERSON.email, password: NEW_PASSWORD });
  await elsewhere.close();
});
