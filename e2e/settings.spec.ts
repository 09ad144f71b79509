import { expect, test, type Page } from '@playwright/test';
import { seedArgumentRetention, seedMember } from './seed';
import { signIn } from './sign-in';
import { E2E_ADMIN, E2E_INIT_API_KEY } from './test-env';

// Argument retention end to end: an admin turns it on in the Settings page, an agent's key
// created (and used) before the change keeps its calls from then on, the trace shows what was
// kept, and an author's impact preview replays those calls with the context they were made in.

const AUTHOR = { email: 'settings-author@example.com', password: 'settings-author-password', role: 'author' } as const;
const ADMIN_KEY = { authorization: `Bearer ${E2E_INIT_API_KEY}` };

/** Its precondition reads the call's context: replaying it without the recorded context would refuse every call. */
const CANCEL = {
  id: 'shipments.cancel',
  version: '1.0.0',
  description: 'Cancels a shipment that is still being packed.',
  owner: 'team-logistics',
  input: {
    type: 'object',
    required: ['tenant_id', 'shipment_id'],
    additionalProperties: false,
    properties: {
      tenant_id: { type: 'string', minLength: 1, maxLength: 64 },
      shipment_id: { type: 'string', pattern: '^shp_[a-z0-9]{4,16}$' },
    },
  },
  output: { type: 'object', required: ['cancelled'], properties: { cancelled: { type: 'boolean' } } },
  errors: { type: 'object', required: ['code', 'message'], properties: { code: { type: 'string' }, message: { type: 'string' } } },
  annotations: {
    kind: 'mutation',
    side_effect_level: 'write',
    idempotent: true,
    idempotency_strategy: 'natural',
    confirmation_required: false,
    approval_required: false,
    approver_roles: [],
  },
  scope: { tenant: 'tenant_id' },
  preconditions: [
    {
      id: 'still_packing',
      expression: 'has(context.state.shipment_status) && context.state.shipment_status == "packing"',
      message: 'only shipments still being packed can be cancelled',
    },
  ],
};

async function replaceText(page: Page, needle: string, replacement: string) {
  await page.getByTestId('studio-editor').locator('.view-lines').click();
  await page.keyboard.press('ControlOrMeta+f');
  await page.keyboard.insertText(needle);
  await page.keyboard.press('Enter');
  await page.keyboard.press('Escape');
  await page.keyboard.type(replacement);
}

test("an admin turns retention on; an existing key's calls are kept, shown on the trace and replayed by the impact preview", async ({
  page,
  baseURL,
  browser,
}) => {
  await seedMember(AUTHOR);
  let agentKey = '';
  let traceId = '';
  const cancel = async (i: number, status: string) => {
    const response = await page.request.post('/api/v1/validate/pre', {
      headers: { authorization: `Bearer ${agentKey}` },
      data: {
        tool: CANCEL.id,
        call_id: `cancel-${i}`,
        arguments: { tenant_id: 'acme', shipment_id: `shp_${1000 + i}` },
        context: { tenant_id: 'acme', user_id: 'u_7', state: { shipment_status: status } },
      },
    });
    expect(response.status()).toBe(200);
    return (await response.json()) as { decision: string; trace_id: string; evidence_id: string };
  };

  try {
    await test.step('the contract is published; an agent key is created and used while retention is off', async () => {
      expect((await page.request.post('/api/v1/contracts', { headers: ADMIN_KEY, data: CANCEL })).status()).toBe(201);
      expect(
        (
          await page.request.post(`/api/v1/contracts/${CANCEL.id}/versions/${CANCEL.version}/publish`, { headers: ADMIN_KEY, data: {} })
        ).status(),
      ).toBe(200);
      const created = await page.request.post('/api/v1/api-keys', {
        headers: ADMIN_KEY,
        data: { name: 'settings agent', scopes: ['validate'] },
      });
      expect(created.status()).toBe(201);
      agentKey = ((await created.json()) as { key: string }).key;
      expect((await cancel(0, 'packing')).decision).toBe('allow');
    });

    await test.step('an admin turns retention on in the Settings page', async () => {
      await signIn(page.request, baseURL, E2E_ADMIN);
      await page.goto('/settings');
      await expect(page.getByRole('heading', { name: 'Settings', level: 1 })).toBeVisible();
      await expect(page.getByTestId('settings-retention-off')).toBeChecked();
      await expect(page.getByTestId('settings-retention-days')).toBeDisabled();
      await page.getByTestId('settings-retention-keep').check();
      await page.getByTestId('settings-retention-days').fill('30');
      await expect(page.getByTestId('settings-status')).toHaveText('Unsaved changes');
      await page.getByTestId('settings-save').click();
      await expect(page.getByTestId('settings-status')).toHaveText('Saved. New calls use these settings.');
      const settings = await page.request.get('/api/v1/settings', { headers: ADMIN_KEY });
      expect(await settings.json()).toMatchObject({ argument_retention_days: 30 });
      // Right after saving, the form shows what was saved (React's form reset used to put the
      // radios back to "Off" as loaded), and saving it again as shown keeps retention on.
      await expect(page.getByTestId('settings-retention-keep')).toBeChecked();
      await expect(page.getByTestId('settings-retention-off')).not.toBeChecked();
      const savedAgain = page.waitForResponse((r) => r.request().method() === 'POST' && new URL(r.url()).pathname === '/settings');
      await page.getByTestId('settings-save').click();
      await savedAgain;
      await expect(page.getByTestId('settings-status')).toHaveText('Saved. New calls use these settings.');
      expect(await (await page.request.get('/api/v1/settings', { headers: ADMIN_KEY })).json()).toMatchObject({
        argument_retention_days: 30,
      });
      await page.reload();
      await expect(page.getByTestId('settings-retention-keep')).toBeChecked();
      await expect(page.getByTestId('settings-retention-days')).toHaveValue('30');
    });

    await test.step('the admin adds a webhook (the secret shown once; private receivers refused) and deletes it', async () => {
      await page.getByTestId('webhook-url').fill('http://127.0.0.1:9/hook');
      await page.getByTestId('webhook-add').click();
      await expect(page.getByTestId('webhook-error')).toContainText('public addresses');
      await page.getByTestId('webhook-url').fill('https://hooks.example.com/toolgate');
      await page.getByTestId('webhook-add').click();
      await expect(page.getByTestId('webhook-created')).toContainText('https://hooks.example.com/toolgate');
      await expect(page.getByTestId('webhook-secret')).not.toBeEmpty();
      const row = page.getByTestId('webhook-row');
      await expect(row).toHaveCount(1);
      await expect(row).toContainText('approval.decided, approval.pending');
      await row.getByRole('button', { name: 'Delete' }).click();
      await row.getByRole('button', { name: 'Confirm delete' }).click();
      await expect(page.getByTestId('webhooks-empty')).toBeVisible();
    });

    await test.step("the same key's next calls keep their arguments and context, shown on the trace", async () => {
      // Four shipments still packing pass; a shipped one fails the precondition.
      for (const [i, status] of ['packing', 'packing', 'packing', 'packing', 'shipped'].entries()) {
        const answer = await cancel(i + 1, status);
        expect(answer.decision).toBe(status === 'packing' ? 'allow' : 'deny');
        if (i === 0) traceId = answer.trace_id;
      }
      await page.goto(`/traces/${traceId}`);
      const record = page.getByTestId('trace-record').first();
      await record.getByTestId('record-payload-context').locator('summary').click();
      await expect(record.getByTestId('record-payload-context')).toContainText('"shipment_status": "packing"');
      await record.getByTestId('record-payload-arguments').locator('summary').click();
      await expect(record.getByTestId('record-payload-arguments')).toContainText('shp_1001');
    });

    await test.step('an author previews the same contract with its version bumped: every kept call replays unchanged', async () => {
      const context = await browser.newContext();
      const author = await context.newPage();
      await signIn(author.request, baseURL, AUTHOR);
      // Not an admin: the values, read-only, and why.
      await author.goto('/settings');
      await expect(author.getByTestId('settings-read-only')).toContainText('your role is author');
      await expect(author.getByTestId('settings-retention-keep')).toBeChecked();
      await expect(author.getByTestId('settings-retention-keep')).toBeDisabled();
      await expect(author.getByTestId('settings-save')).toHaveCount(0);
      await expect(author.getByTestId('webhooks-admin-only')).toBeVisible();
      await author.goto(`/contracts/${CANCEL.id}`);
      await expect(author.getByTestId('studio-editor').locator('.view-lines')).toContainText('"version": "1.0.0"');
      await replaceText(author, '1.0.0', '1.0.1');
      await expect(author.getByTestId('studio-editor').locator('.view-lines')).toContainText('"version": "1.0.1"');
      await author.getByTestId('impact-preview-button').click();
      const panel = author.getByTestId('impact-panel');
      await expect(panel).toContainText('Replayed 5 recorded calls of shipments.cancel from the last 7 days.');
      await expect(panel.getByTestId('impact-changed-count')).toHaveText('0');
      await expect(panel.getByTestId('impact-newly-refused')).toHaveText('0');
      await expect(panel.getByTestId('impact-empty')).toContainText('No decision would change');
      // The call made before retention was on has no arguments to replay, and says so.
      await expect(panel.getByTestId('impact-not-replayable')).toContainText('1 call recorded without arguments');
      await context.close();
    });
  } finally {
    await seedArgumentRetention({ retain: false });
  }
});
