import { expect, test, type Page } from '@playwright/test';
import { seedArgumentRetention, seedMember } from './seed';
import { signIn as signInThroughApi } from './sign-in';
import { E2E_INIT_API_KEY } from './test-env';

// The contract studio end to end: a template becomes a contract, live diagnostics come and go
// as the author types, two versions are published and compared, and a viewer cannot edit.

const AUTHOR = { email: 'studio-author@example.com', password: 'studio-author-password', role: 'author' } as const;
const VIEWER = { email: 'studio-viewer@example.com', password: 'studio-viewer-password', role: 'viewer' } as const;
const TOOL = 'orders.lookup';

const signIn = (page: Page, baseURL: string | undefined, who: { email: string; password: string }) =>
  signInThroughApi(page.request, baseURL, who);

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

test('an author creates, breaks, fixes, publishes and compares contract versions; a viewer cannot edit', async ({
  page,
  baseURL,
  browser,
}) => {
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
    await page.getByLabel('Change note').fill('Clearer description (see ticket SUPPORT-TOOLING-4821)');
    await page.getByRole('button', { name: 'Publish version' }).click();
    await expect(page.getByTestId('served-version')).toHaveText('v0.2.0');
    await expect(page.getByTestId('version-row').filter({ hasText: '0.2.0' })).toContainText('published');
    await expect(page.getByTestId('version-row').filter({ hasText: '0.1.0' })).not.toContainText('served');
    // From 1,000 px of editor area the history is a narrow panel beside the editor: a row's link
    // stays inside it rather than off its edge.
    const viewport = page.viewportSize();
    await page.setViewportSize({ width: 1440, height: 900 });
    const history = page.getByRole('region', { name: 'Version history' });
    await expect.poll(async () => (await history.boundingBox())?.width ?? Infinity).toBeLessThan(500);
    const panel = await history.boundingBox();
    for (const [version, end] of [
      ['0.1.0', 'Open'],
      ['0.2.0', 'in the editor'],
    ] as const) {
      const box = await page.getByTestId('version-row').filter({ hasText: version }).getByText(end, { exact: true }).boundingBox();
      expect(box && panel && box.x + box.width <= panel.x + panel.width, `${version}: ${end}`).toBe(true);
    }
    if (viewport) await page.setViewportSize(viewport);
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
    await expect(viewer.getByTestId('read-only-notice')).toHaveText(
      'Only authors and admins can edit or publish contracts; your role is viewer.',
    );
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

const IMPACT_AUTHOR = { email: 'impact-author@example.com', password: 'impact-author-password', role: 'author' } as const;

/** A small published contract whose one limit the author will tighten. */
const QUOTE = {
  id: 'payments.quote',
  version: '1.0.0',
  description: 'Quotes the fee for a payment of the given amount. Changes nothing.',
  owner: 'team-payments',
  input: {
    type: 'object',
    required: ['tenant_id', 'amount_cents'],
    additionalProperties: false,
    properties: {
      tenant_id: { type: 'string', minLength: 1, maxLength: 64 },
      amount_cents: { type: 'integer', minimum: 1, maximum: 100000 },
    },
  },
  output: { type: 'object', required: ['fee_cents'], properties: { fee_cents: { type: 'integer', minimum: 0 } } },
  errors: { type: 'object', required: ['code', 'message'], properties: { code: { type: 'string' }, message: { type: 'string' } } },
  annotations: {
    kind: 'query',
    side_effect_level: 'read_only',
    idempotent: true,
    idempotency_strategy: 'natural',
    confirmation_required: false,
    approval_required: false,
    approver_roles: [],
  },
  scope: { tenant: 'tenant_id' },
};

test('an author previews which recorded calls a tightened contract would refuse', async ({ page, baseURL }) => {
  await seedMember(IMPACT_AUTHOR);
  const agentKey = await seedArgumentRetention({ retain: true, agentKey: 'impact agent' });
  try {
    await test.step('the contract is published and agents call it, with their arguments retained', async () => {
      const admin = { authorization: `Bearer ${E2E_INIT_API_KEY}` };
      expect((await page.request.post('/api/v1/contracts', { headers: admin, data: QUOTE })).status()).toBe(201);
      expect(
        (await page.request.post(`/api/v1/contracts/${QUOTE.id}/versions/${QUOTE.version}/publish`, { headers: admin, data: {} })).status(),
      ).toBe(200);
      // Four calls within the limit; one above it, refused now and under the draft alike.
      for (const [i, amount] of [500, 2500, 40000, 90000, 250000].entries()) {
        const response = await page.request.post('/api/v1/validate/pre', {
          headers: { authorization: `Bearer ${agentKey}` },
          data: {
            tool: QUOTE.id,
            call_id: `quote-${i}`,
            arguments: { tenant_id: 'acme', amount_cents: amount },
            context: { tenant_id: 'acme' },
          },
        });
        expect(response.status()).toBe(200);
        expect((await response.json()).decision).toBe(amount <= 100000 ? 'allow' : 'deny');
      }
    });

    await test.step('lowering the maximum shows the calls it would newly refuse, per error code', async () => {
      await signIn(page, baseURL, IMPACT_AUTHOR);
      await page.goto(`/contracts/${QUOTE.id}`);
      await expect(page.getByTestId('studio-editor').locator('.view-lines')).toContainText('"maximum": 100000');
      await expect(page.getByTestId('impact-panel')).toHaveCount(0);
      await replaceText(page, '100000', '10000');
      await expect(page.getByTestId('studio-editor').locator('.view-lines')).toContainText('"maximum": 10000,');
      await page.getByTestId('impact-preview-button').click();

      const panel = page.getByTestId('impact-panel');
      await expect(panel).toContainText('Replayed 5 recorded calls of payments.quote from the last 7 days.');
      await expect(panel.getByTestId('impact-changed-count')).toHaveText('2');
      await expect(panel.getByTestId('impact-newly-refused')).toHaveText('2');
      await expect(panel.getByTestId('impact-newly-passing')).toHaveText('0');
      const codeRows = panel.getByTestId('impact-code-row');
      await expect(codeRows).toHaveCount(1);
      await expect(codeRows).toContainText('AXAG_OUT_OF_RANGE');
      await expect(codeRows).toContainText('+2');
      // Newest first: 90000 (quote-3), then 40000 (quote-2); the 250000 call is refused either way.
      const changes = panel.getByTestId('impact-change-row');
      await expect(changes).toHaveCount(2);
      await expect(changes.nth(0)).toContainText('quote-3');
      await expect(changes.nth(1)).toContainText('quote-2');
      await expect(changes.nth(0)).toContainText(/passes\s*→?\s*AXAG_OUT_OF_RANGE/);
    });

    await test.step('an edit marks the preview stale; a draft that does not parse points at the problems panel', async () => {
      const panel = page.getByTestId('impact-panel');
      await replaceText(page, '"maximum": 10000', 'maximum 10000');
      await expect(panel.getByTestId('impact-stale')).toBeVisible();
      await page.getByTestId('impact-preview-button').click();
      await expect(panel.getByTestId('impact-error')).toContainText('does not parse');
      await expect(panel.getByTestId('impact-error')).toContainText('problems panel');
      await expect(problems(page).getByTestId('problem').first()).toBeVisible();
    });
  } finally {
    await seedArgumentRetention({ retain: false });
  }
});

test('a "new" page does not save over a draft someone else keeps at the same id and version', async ({ page, baseURL }) => {
  await seedMember(AUTHOR);
  await signIn(page, baseURL, AUTHOR);
  const admin = { authorization: `Bearer ${E2E_INIT_API_KEY}` };
  // A colleague's work in progress at the starter's id and version.
  const theirs = { id: 'support-default', version: '0.1.0', description: 'Their work in progress.', rules: [] };
  expect((await page.request.post('/api/v1/policies', { headers: admin, data: theirs })).status()).toBe(201);

  await page.goto('/policies/new');
  await expect(page.getByTestId('studio-editor').locator('.monaco-editor')).toBeVisible();
  await page.getByRole('button', { name: 'Save draft' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'Saving failed' })).toContainText('already has a draft that someone else saved');
  const stored = await page.request.get('/api/v1/policies/support-default/versions/0.1.0', { headers: admin });
  expect((await stored.json()).document.description).toBe('Their work in progress.');
});

test('two tabs editing one draft: the second save is refused with a reason, not written over the first', async ({ page, baseURL }) => {
  await seedMember(AUTHOR);
  await signIn(page, baseURL, AUTHOR);
  const RACE = {
    id: 'race.tabs',
    version: '1.0.0',
    description: 'Opened in two tabs.',
    owner: 'team-race',
    input: { type: 'object', properties: { q: { type: 'string', maxLength: 10 } } },
    annotations: { kind: 'query', side_effect_level: 'read_only', idempotent: true },
  };
  const admin = { authorization: `Bearer ${E2E_INIT_API_KEY}` };
  expect((await page.request.post('/api/v1/contracts', { headers: admin, data: RACE })).status()).toBe(201);

  const tabB = await page.context().newPage();
  for (const tab of [page, tabB]) {
    await tab.goto(`/contracts/${RACE.id}?version=1.0.0`);
    await expect(tab.getByTestId('studio-editor').locator('.monaco-editor')).toBeVisible();
  }

  await test.step('tab A saves its edit', async () => {
    await replaceText(page, 'Opened in two tabs.', 'A-edit.');
    await page.getByRole('button', { name: 'Save draft' }).click();
    await expect(page.getByRole('status')).toContainText('Saved draft 1.0.0');
  });

  await test.step("tab B, still on the text it opened, is refused and A's edit stays", async () => {
    await replaceText(tabB, 'Opened in two tabs.', 'B-edit.');
    await tabB.getByRole('button', { name: 'Save draft' }).click();
    await expect(tabB.getByRole('alert').filter({ hasText: 'Saving failed' })).toContainText(
      'was saved by someone else since you loaded it',
    );
    const stored = await page.request.get(`/api/v1/contracts/${RACE.id}/versions/1.0.0`, { headers: admin });
    expect((await stored.json()).document.description).toBe('A-edit.');
  });

  await test.step('tab A, which made the latest save, publishes it', async () => {
    await page.getByRole('button', { name: 'Publish…' }).click();
    await page.getByRole('button', { name: 'Publish version' }).click();
    await expect(page.getByTestId('served-version')).toHaveText('v1.0.0');
  });
  await tabB.close();
});
