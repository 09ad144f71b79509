import { expect, test, type Page } from '@playwright/test';
import { seedMember } from './seed';
import { signIn } from './sign-in';

// A tool surface in the studio: the system prompt is edited beside the tools, a prompt that
// names an undeclared tool is underlined in the prompt pane, and the fixed surface publishes.

const AUTHOR = { email: 'surface-author@example.com', password: 'surface-author-password', role: 'author' } as const;

const problems = (page: Page) => page.getByTestId('problems-panel');

test('an author writes a surface whose prompt names an unknown tool, sees it flagged in the prompt, fixes it and publishes', async ({
  page,
  baseURL,
}) => {
  await seedMember(AUTHOR);
  await signIn(page.request, baseURL, AUTHOR);

  await page.goto('/surfaces');
  await expect(page.getByRole('heading', { name: 'Tool surfaces', level: 1 })).toBeVisible();
  await page.getByRole('link', { name: 'New surface' }).click();
  await expect(page).toHaveURL(/\/surfaces\/new$/);
  const prompt = page.getByTestId('studio-prompt-editor');
  await expect(prompt.locator('.view-lines')).toContainText('Use lookup_order to find an order');
  await expect(problems(page)).toContainText('No problems found.');

  await test.step('a call of an undeclared tool in the prompt is flagged there', async () => {
    await prompt.locator('.view-lines').click();
    await page.keyboard.press('ControlOrMeta+End');
    await page.keyboard.type(' Then call refund_order');
    await page.keyboard.insertText('(order_id).');
    await expect(problems(page)).toContainText('TOOL_SURFACE_UNKNOWN_PROMPT_TOOL');
    await expect(prompt.locator('.squiggly-warning')).toHaveCount(1);
  });

  await test.step('removing it clears the warning; the surface saves and publishes', async () => {
    await page.keyboard.press('Shift+Home');
    await page.keyboard.press('Backspace');
    await page.keyboard.type('You help customers with their orders. Use lookup_order to find an order.');
    await expect(problems(page)).toContainText('No problems found.');
    await expect(prompt.locator('.squiggly-warning')).toHaveCount(0);
    await page.getByRole('button', { name: 'Save draft' }).click();
    await expect(page).toHaveURL(/\/surfaces\/support-agent/);
    await page.getByRole('button', { name: 'Publish…' }).click();
    await page.getByLabel('Change note').fill('First surface');
    await page.getByRole('button', { name: 'Publish version' }).click();
    // Navigating away before the answer arrives would abort the publish request.
    await expect(page.getByTestId('served-version')).toHaveText('v0.1.0');
    await page.goto('/surfaces');
    // Other specs may have surfaces in this tenant too: look at this one's card.
    const card = page.getByRole('listitem').filter({ has: page.getByRole('link', { name: 'support-agent', exact: true }) });
    await expect(card.getByText('Runtime serves v0.1.0')).toBeVisible();
  });
});
