import { expect, test, type Page } from '@playwright/test';
import { signIn } from './sign-in';

// The policy playground end to end: an author writes a limit in the studio, tries a request
// against the unsaved draft with a simulated history (denied when the history fills the limit,
// allowed when it does not), publishes, and the limit then holds against real validate/pre calls.

const AUTHOR = { email: 'playground-author@example.com', password: 'playground-author-password' } as const;
const TOOL = 'orders.lookup';
const POLICY = {
  id: 'playground-limits',
  version: '1.0.0',
  description: 'At most two order lookups per user an hour.',
  limits: [{ id: 'two-lookups-per-user', tools: [TOOL], per: 'user', window: '1h', max_calls: 2 }],
};
const ARGUMENTS = { tenant_id: 'acme', order_id: 'ord_abc123' };
const CONTEXT = { tenant_id: 'acme', user_id: 'u_playground' };

/**
 * A tenant of its own with the orders.lookup example contract published, seeded through the
 * app's own services, the author its only member and a `validate` key for the agent. Not the
 * demo tenant: its policies decide orders.lookup too, and the published limit touches no other spec.
 */
async function seedPlayground(): Promise<{ agentKey: string }> {
  process.env.DATABASE_URL = `file:${process.env.TOOLGATE_E2E_DATABASE}`;
  // Imported late so DATABASE_URL is set before the client is created.
  const { disconnectDb } = await import('../lib/db');
  const { createTenant } = await import('../lib/tenants/create-tenant');
  const { publishContract } = await import('../lib/testing/fixtures');
  const { lookupOrderContract } = await import('../lib/contracts/examples');
  const { addMember } = await import('../lib/tenants/add-member');
  const { createApiKey } = await import('../lib/auth/api-keys');
  const tenant = await createTenant({ slug: 'playground', name: 'Playground' });
  await publishContract(tenant.id, lookupOrderContract);
  await addMember({ tenantId: tenant.id, email: AUTHOR.email, password: AUTHOR.password, role: 'author' });
  const { key } = await createApiKey({ tenantId: tenant.id, name: 'playground agent', scopes: ['validate'] });
  await disconnectDb();
  return { agentKey: key };
}

const panel = (page: Page) => page.getByTestId('try-panel');
const pastLookups = (...secondsAgo: number[]) => JSON.stringify(secondsAgo.map((s) => ({ tool: TOOL, seconds_ago: s })));

async function tryWithHistory(page: Page, history: string) {
  await panel(page).getByLabel('Simulated history (JSON list)').fill(history);
  await panel(page).getByRole('button', { name: 'Try', exact: true }).click();
}

test('an author tries a limit in the playground, publishes it, and it holds against real calls', async ({ page, baseURL }) => {
  const { agentKey } = await seedPlayground();
  await signIn(page.request, baseURL, AUTHOR);

  await test.step('the author writes a policy with a limit in the studio editor', async () => {
    await page.goto('/policies/new');
    const editor = page.getByTestId('studio-editor');
    await expect(editor.locator('.monaco-editor')).toBeVisible();
    await editor.locator('.view-lines').click();
    await page.keyboard.press('ControlOrMeta+a');
    // One line, inserted at once; the editor closes the first bracket and quote it sees as
    // typed, so what it added after the cursor goes.
    await page.keyboard.insertText(JSON.stringify(POLICY));
    await page.keyboard.press('Shift+ControlOrMeta+End');
    await page.keyboard.press('Delete');
    await expect(editor.locator('.view-lines')).toContainText('"max_calls":2');
    await expect(page.getByTestId('problems-panel')).toContainText('No problems found.');
  });

  await test.step('an empty panel; bad JSON is caught in the form, and nothing is sent', async () => {
    await expect(panel(page).getByTestId('try-empty')).toBeVisible();
    await panel(page).getByLabel('Tool', { exact: true }).fill(TOOL);
    await panel(page).getByLabel('Arguments (JSON)').fill('{"order_id": ');
    await panel(page).getByRole('button', { name: 'Try', exact: true }).click();
    await expect(panel(page).getByTestId('try-arguments-error')).toContainText('Not valid JSON');
    await expect(panel(page).getByLabel('Arguments (JSON)')).toHaveAttribute('aria-invalid', 'true');
    await expect(panel(page).getByTestId('try-empty')).toBeVisible();
    await panel(page).getByLabel('Arguments (JSON)').fill(JSON.stringify(ARGUMENTS));
    await panel(page).getByLabel('Context (JSON)').fill(JSON.stringify(CONTEXT));
  });

  await test.step('with two lookups in the last hour, the draft denies the third with AXAG_RATE_LIMITED', async () => {
    await tryWithHistory(page, pastLookups(1200, 60));
    const result = panel(page).getByTestId('try-result');
    await expect(result.getByTestId('try-decision')).toHaveAttribute('data-decision', 'deny');
    await expect(result.getByTestId('try-decided-by')).toContainText('two-lookups-per-user');
    await expect(result.getByTestId('try-error-code')).toHaveCount(1);
    await expect(result.getByTestId('try-error-code')).toContainText('AXAG_RATE_LIMITED');
    await expect(result.getByTestId('try-error-code')).toContainText('0 remain');
    const row = result.getByTestId('try-limit-row');
    await expect(row.getByTestId('try-limit-used')).toHaveText('2');
    await expect(row.getByTestId('try-limit-remaining')).toHaveText('0');
    // The older lookup (20 minutes ago) leaves the hour in 40 minutes, give or take one 60 s bucket.
    await expect(row.getByTestId('try-limit-retry')).toHaveText(/^4[01] min$/);
    await expect(result.getByTestId('try-side-effect')).toContainText('read_only, from the published contract v1.3.0');
    await expect(result.getByTestId('try-trace-step')).toHaveCount(1);
    await expect(result.getByTestId('try-trace-step')).toHaveAttribute('data-outcome', 'exceeded');
    await expect(result.getByTestId('try-trace-step')).toContainText('2 calls of 2 used in 1h per user');
  });

  await test.step('with one lookup, it allows the call and one remains', async () => {
    await tryWithHistory(page, pastLookups(60));
    const result = panel(page).getByTestId('try-result');
    await expect(result.getByTestId('try-decision')).toHaveAttribute('data-decision', 'allow');
    await expect(result.getByTestId('try-error-code')).toHaveCount(0);
    await expect(result.getByTestId('try-limit-used')).toHaveText('1');
    await expect(result.getByTestId('try-limit-remaining')).toHaveText('1');
    await expect(result.getByTestId('try-trace-step')).toHaveAttribute('data-outcome', 'passed');
  });

  await test.step('the author publishes the policy', async () => {
    await page.getByRole('button', { name: 'Publish…' }).click();
    await page.getByLabel('Change note').fill('Two lookups per user an hour');
    await page.getByRole('button', { name: 'Publish version' }).click();
    await expect(page).toHaveURL(/\/policies\/playground-limits\?version=1\.0\.0$/);
    await expect(page.getByTestId('served-version')).toHaveText('v1.0.0');
  });

  await test.step('real calls: two are allowed, the third is denied with AXAG_RATE_LIMITED', async () => {
    const decisions: { decision: string; errors: { code: string; details: Record<string, unknown> }[] }[] = [];
    for (let i = 1; i <= 3; i++) {
      const response = await page.request.post('/api/v1/validate/pre', {
        headers: { authorization: `Bearer ${agentKey}` },
        data: { tool: TOOL, call_id: `playground-${i}`, arguments: ARGUMENTS, context: CONTEXT },
      });
      expect(response.status()).toBe(200);
      decisions.push(await response.json());
    }
    expect(decisions.map((d) => d.decision)).toEqual(['allow', 'allow', 'deny']);
    const refused = decisions[2]!.errors;
    expect(refused.map((e) => e.code)).toEqual(['AXAG_RATE_LIMITED']);
    expect(refused[0]!.details).toMatchObject({ limit_id: 'two-lookups-per-user', max: 2, used: 2, remaining: 0 });
    expect(refused[0]!.details.retry_after_seconds).toBeGreaterThan(3000);
  });
});
