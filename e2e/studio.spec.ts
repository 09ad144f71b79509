import { expect, test, type Page } from '@playwright/test';
import { seedMember } from './seed';
import { signIn as signInThroughApi } from './sign-in';

// The contract studio end to end: a template becomes a contract, live diagnostics come and go
// as the author types, two versions are published and compared, and a viewer cannot edit.

const AUTHOR = { email: 'studio-author@example.com', password: 'studio-author-password', role: 'author' } as const;
const VIEWER = { email: 'studio-viewer@example.com', password: 'studio-viewer-password', role: 'viewer' } as const;
const TOOL = 'orders.lookup';

const signIn = (page: Page, baseURL: string | undefined, who: { email: string; password: string }) => signInThroughApi(page.request, baseURL, who);

/**
 * Selects `needle` with the editor's own find widget and types `replacement` over it, as an
 * author would. Replacements avoid quotes and brackets, which the editor would auto-close.
 */
async function replaceText(page: Page, needle: string, replacement: string) {
  await page.getByTestId('studio-editor').locator('.view-lines').click();
  await page.keyboard.press('ControlOrMeta+f');
  await page.keyboard.insertText(needle);
  await page.keyboard.press('Enter');
  await page.keyboard.press('Escape');
  await page.keyboard.type(replacement);
}

const problems = (page: Page) => page.getByTestId('problems-panel');
const squiggles = (page: Page) => page.getByTestId('studio-editor').locator('.squiggly-error');

test('an author creates, breaks, fixes, publishes and compares contract versions; a viewer cannot edit', async ({ page, baseURL, browser }) => {
  await seedMember(AUTHOR);
  await seedMember(VIEWER);
  await signIn(page, baseURL, AUTHOR);

  await test.step('a template opens in the editor with no problems', async () => {
    await page.goto('/contracts');
    await page.getByRole('link', { name: 'New contract' }).click();
    await expect(page).toHaveURL(/\/contracts\/new$/);
    await page.getByRole('link', { name: /Read-only query/ }).click();
    await expect(page.getByTestId('studio-editor').locator('.monaco-editor')).toBeVisible();
    await expect(problems(page)).toContainText('No problems found.');
    await expect(problems(page)).toContainText(/Checked in the browser in \d+ ms/);
  });

  await test.step('hover docs come from the contract JSON Schema, in JSON and in YAML', async () => {
    const editor = page.getByTestId('studio-editor');
    const hover = page.locator('.monaco-hover').filter({ hasText: 'Semantic version of this contract' });
    await editor.locator('.view-line span', { hasText: /^"version"$/ }).hover();
    await expect(hover).toBeVisible();

    await page.getByRole('button', { name: 'YAML', exact: true }).click();
    await expect(editor.locator('.view-lines')).toContainText('version: 0.1.0');
    await expect(problems(page)).toContainText('No problems found.');
    await page.mouse.move(0, 0);
    await editor.locator('.view-line span', { hasText: /^version$/ }).hover();
    await expect(hover).toBeVisible();

    // Completions offer the format's keys that the document does not have yet.
    await editor.locator('.view-lines').click();
    await page.keyboard.press('ControlOrMeta+Home');
    await page.keyboard.press('End');
    await page.keyboard.press('Enter');
    await page.keyboard.type('sensi');
    await expect(page.locator('.suggest-widget')).toContainText('sensitive');
    await page.keyboard.press('Escape');
    await page.keyboard.press('Shift+Home');
    await page.keyboard.press('Backspace');
    await page.keyboard.press('Backspace');
    await expect(problems(page)).toContainText('No problems found.');
    await page.getByRole('button', { name: 'JSON', exact: true }).click();
    await expect(editor.locator('.view-lines')).toContainText('"version": "0.1.0"');
  });

  await test.step('a value the format refuses is underlined and listed; fixing it clears both', async () => {
    await replaceText(page, 'read_only', 'sometimes');
    const activeLine = page.getByTestId('studio-editor').locator('.line-numbers.active-line-number');
    const lineOfEdit = await activeLine.innerText();
    expect(Number(lineOfEdit)).toBeGreaterThan(1);
    await expect(squiggles(page).first()).toBeVisible();
    const entry = problems(page).getByTestId('problem').filter({ hasText: 'CONTRACT_SCHEMA_INVALID' });
    await expect(entry).toHaveCount(1);
    await expect(problems(page).getByTestId('problem')).toHaveCount(1);
    await expect(entry).toContainText(new RegExp(`${lineOfEdit}:\\d+`));
    await expect(page.getByRole('button', { name: 'Publish…' })).toBeDisabled();

    // Choosing the problem moves the cursor to it, from wherever it was.
    await page.keyboard.press('ControlOrMeta+Home');
    await expect(activeLine).toHaveText('1');
    await entry.click();
    await expect(activeLine).toHaveText(lineOfEdit);

    await replaceText(page, 'sometimes', 'read_only');
    await expect(squiggles(page)).toHaveCount(0);
    await expect(problems(page).getByTestId('problem')).toHaveCount(0);
    await expect(problems(page)).toContainText('No problems found.');
  });

  await test.step('publishing saves the draft, and history shows the served version', async () => {
    await page.getByRole('button', { name: 'Publish…' }).click();
    await page.getByLabel('Change note').fill('First version');
    await page.getByRole('button', { name: 'Publish version' }).click();
    await expect(page).toHaveURL(new RegExp(`/contracts/${TOOL.replace('.', '\\.')}\\?version=0\\.1\\.0$`));
    const row = page.getByTestId('version-row').filter({ hasText: '0.1.0' });
    await expect(row).toContainText('published');
    await expect(row).toContainText('served');
    await expect(row).toContainText('First version');
    await expect(page.getByTestId('served-version')).toHaveText('v0.1.0');
  });

  await test.step('a second version is saved as a draft, then published', async () => {
    await replaceText(page, '0.1.0', '0.2.0');
    await replaceText(page, 'Changes nothing.', 'Changes nothing, and says so.');
    await page.getByRole('button', { name: 'Save draft' }).click();
    await expect(page).toHaveURL(/\?version=0\.2\.0$/);
    await expect(page.getByTestId('version-row').filter({ hasText: '0.2.0' })).toContainText('draft');
    await expect(page.getByTestId('served-version')).toHaveText('v0.1.0');

    await page.getByRole('button', { name: 'Publish…' }).click();
    await page.getByLabel('Change note').fill('Clearer description');
    await page.getByRole('button', { name: 'Publish version' }).click();
    await expect(page.getByTestId('served-version')).toHaveText('v0.2.0');
    await expect(page.getByTestId('version-row').filter({ hasText: '0.2.0' })).toContainText('published');
    await expect(page.getByTestId('version-row').filter({ hasText: '0.1.0' })).not.toContainText('served');
  });

  await test.step('the two versions are compared side by side', async () => {
    await page.getByLabel('Compare from version').selectOption('0.1.0');
    await page.getByLabel('Compare to version').selectOption('0.2.0');
    await page.getByRole('button', { name: 'Show diff' }).click();
    const diff = page.getByTestId('version-diff');
    await expect(diff.locator('.monaco-diff-editor')).toBeVisible();
    await expect(diff.locator('.editor.original .view-lines')).toContainText('"version": "0.1.0"');
    await expect(diff.locator('.editor.original .view-lines')).toContainText('Changes nothing."');
    await expect(diff.locator('.editor.modified .view-lines')).toContainText('"version": "0.2.0"');
    await expect(diff.locator('.editor.modified .view-lines')).toContainText('Changes nothing, and says so."');
    await expect(diff.locator('.line-insert, .char-insert').first()).toBeVisible();
  });

  await test.step('a viewer sees a read-only editor and no save or publish', async () => {
    const context = await browser.newContext({ baseURL });
    const viewer = await context.newPage();
    await signIn(viewer, baseURL, VIEWER);
    await viewer.goto(`/contracts/${TOOL}`);
    await expect(viewer.getByTestId('read-only-notice')).toHaveText('Only authors and admins can edit or publish contracts; your role is viewer.');
    const lines = viewer.getByTestId('studio-editor').locator('.view-lines');
    await expect(lines).toContainText('"version": "0.2.0"');
    await expect(viewer.getByRole('button', { name: 'Save draft' })).toHaveCount(0);
    await expect(viewer.getByRole('button', { name: 'Publish…' })).toHaveCount(0);
    const before = await lines.innerText();
    await lines.click();
    await viewer.keyboard.type('xyz');
    await expect(viewer.locator('.monaco-editor-overlaymessage')).toContainText('your role is viewer');
    expect(await lines.innerText()).toBe(before);
    await context.close();
  });
});
