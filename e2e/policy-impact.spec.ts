import { expect, test } from '@playwright/test';
import { signIn } from './sign-in';

// The policy impact preview end to end: agents call a tool under an enforced policy, an author
// adds a per-user limit to it in the studio, and the preview shows which recorded calls the
// unsaved draft would refuse, before anything is published.

const AUTHOR = { email: 'policy-impact-author@example.com', password: 'policy-impact-author-password' } as const;
const TOOL = 'orders.lookup';
const ENFORCED = {
  id: 'lookups',
  version: '1.0.0',
  rules: [{ id: 'reads-ok', tools: ['orders.*'], decision: 'allow', reason: 'reads are fine' }],
};
const DRAFT = {
  ...ENFORCED,
  version: '1.1.0',
  limits: [{ id: 'two-per-user', tools: [TOOL], per: 'user', window: '1h', max_calls: 2 }],
};

/**
 * A tenant of its own (argument retention on, the example contracts and the enforced policy
 * published through the app's services), the author as its member, and a `validate` key.
 */
async function seedTenant(): Promise<{ agentKey: string }> {
  process.env.DATABASE_URL = `file:${process.env.TOOLGATE_E2E_DATABASE}`;
  // Imported late so DATABASE_URL is set before the client is created.
  const { disconnectDb } = await import('../lib/db');
  const { createTenant } = await import('../lib/tenants/create-tenant');
  const { addMember } = await import('../lib/tenants/add-member');
  const { createApiKey } = await import('../lib/auth/api-keys');
  const { EXAMPLE_CONTRACTS } = await import('../lib/contracts/examples');
  const { saveDocumentDraft } = await import('../lib/documents/save-document-draft');
  const { publishDocumentVersion } = await import('../lib/documents/publish-document-version');
  const { closeEvidenceWriter } = await import('../lib/evidence/record-evidence');
  const tenant = await createTenant({ slug: 'policy-impact', name: 'Policy impact', storeRawArguments: true, retentionDays: 30 });
  await addMember({ tenantId: tenant.id, email: AUTHOR.email, password: AUTHOR.password, role: 'author' });
  const documents = [...EXAMPLE_CONTRACTS.map((d) => ({ kind: 'contract' as const, d })), { kind: 'policy' as const, d: ENFORCED }];
  for (const { kind, d } of documents) {
    await saveDocumentDraft({ tenantId: tenant.id, kind, document: d });
    await publishDocumentVersion({ tenantId: tenant.id, kind, id: d.id, version: d.version });
  }
  const { key } = await createApiKey({ tenantId: tenant.id, name: 'impact agent', scopes: ['validate'] });
  await closeEvidenceWriter();
  await disconnectDb();
  return { agentKey: key };
}

test('an author previews which recorded calls a stricter policy draft would refuse', async ({ page, baseURL }) => {
  const { agentKey } = await seedTenant();

  await test.step('agents make calls the enforced policy allows', async () => {
    for (const [i, user] of ['u1', 'u1', 'u2', 'u1', 'u1'].entries()) {
      const response = await page.request.post('/api/v1/validate/pre', {
        headers: { authorization: `Bearer ${agentKey}` },
        data: {
          tool: TOOL,
          call_id: `lookup-${i}`,
          arguments: { tenant_id: 'acme', order_id: 'ord_abc123' },
          context: { tenant_id: 'acme', user_id: user },
        },
      });
      expect(response.status()).toBe(200);
      expect((await response.json()).decision).toBe('allow');
    }
  });

  await test.step('the author adds a limit in the editor and previews its impact, unsaved', async () => {
    await signIn(page.request, baseURL, AUTHOR);
    await page.goto(`/policies/${ENFORCED.id}`);
    const editor = page.getByTestId('studio-editor');
    await expect(editor.locator('.view-lines')).toContainText('reads-ok');
    await expect(page.getByTestId('impact-panel')).toHaveCount(0);
    await editor.locator('.view-lines').click();
    await page.keyboard.press('ControlOrMeta+a');
    // One line, inserted at once; the editor closes the first bracket and quote it sees as
    // typed, so what it added after the cursor goes.
    await page.keyboard.insertText(JSON.stringify(DRAFT));
    await page.keyboard.press('Shift+ControlOrMeta+End');
    await page.keyboard.press('Delete');
    await expect(editor.locator('.view-lines')).toContainText('"max_calls":2');
    await page.getByTestId('impact-preview-button').click();

    const panel = page.getByTestId('impact-panel');
    await expect(panel).toContainText('Replayed 5 recorded calls from the last 7 days against the enforced policies');
    await expect(panel).toContainText('in place of v1.0.0');
    // u1's third and fourth lookups are past two an hour; u2's is not.
    await expect(panel.getByTestId('impact-changed-count')).toHaveText('2');
    await expect(panel.getByTestId('policy-impact-transition')).toHaveCount(1);
    await expect(panel.getByTestId('policy-impact-transition')).toContainText(/allow\s*→\s*deny\s*2/);
    await expect(panel.getByTestId('impact-code-row')).toContainText('AXAG_RATE_LIMITED');
    const changes = panel.getByTestId('impact-change-row');
    await expect(changes).toHaveCount(2);
    await expect(changes.nth(0)).toContainText('lookup-4');
    await expect(changes.nth(1)).toContainText('lookup-3');
    await expect(changes.nth(0)).toContainText('two-per-user');
    await expect(panel.getByTestId('policy-impact-history-note')).toContainText('count only the replayed calls');
  });

  await test.step('nothing was published: the served version is still the enforced one', async () => {
    const listed = await page.request.get('/api/v1/policies');
    const policy = (await listed.json()).policies.find((p: { id: string }) => p.id === ENFORCED.id);
    expect(policy.latestVersion).toBe('1.0.0');
    expect(policy.versions.map((v: { version: string }) => v.version)).toEqual(['1.0.0']);
  });
});
