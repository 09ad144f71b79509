import { expect, test, type APIRequestContext, type Page, type TestInfo } from '@playwright/test';
import { seedMember } from './seed';
import { signIn } from './sign-in';
import { E2E_ADMIN, E2E_INIT_API_KEY } from './test-env';

// What an approver sees on the approval card: the agent's claims labelled as such and apart from
// what Toolgate established, hidden and direction-changing characters revealed and flagged, the
// links to the trace and the contract version, why this person cannot act, and an earlier
// approver's edit as a diff.

const APPROVER = { email: 'card-approver@example.com', password: 'card-approver-password', role: 'approver' } as const;
const ADMIN = { authorization: `Bearer ${E2E_INIT_API_KEY}` };
const TOOL = 'e2e.send_note';
const VERSION = '1.0.0';

const NOTE_CONTRACT = {
  id: TOOL,
  version: VERSION,
  description: 'Sends a short note to a customer.',
  owner: 'team-support',
  input: {
    type: 'object',
    required: ['recipient', 'body'],
    additionalProperties: false,
    properties: {
      recipient: { type: 'string', minLength: 1, maxLength: 200 },
      body: { type: 'string', minLength: 1, maxLength: 2000 },
      reason: { type: 'string', maxLength: 500 },
      meta: { type: 'object', additionalProperties: { type: 'string', maxLength: 100 } },
    },
  },
  output: { type: 'object', required: ['sent'], properties: { sent: { type: 'boolean' } } },
  annotations: {
    kind: 'mutation',
    side_effect_level: 'external',
    idempotent: false,
    confirmation_required: false,
    approval_required: false,
    approver_roles: [],
  },
};

/** Notes need two admins: so an approver can read but not act, and an edit leaves the approval pending. */
const NOTE_REVIEW = {
  id: 'note-review',
  version: '1.0.0',
  description: 'Notes to customers are reviewed by two admins.',
  approval: { rules: [{ tools: [TOOL], roles: ['admin'], approvers_required: 2 }] },
  rules: [
    {
      id: 'notes-need-review',
      tools: [TOOL],
      decision: 'require_approval',
      roles: ['admin'],
      // An author's words, shown on the card: revealed like the agent's.
      reason: 'Notes to customers are reviewed by \u202Eadmins.',
    },
  ],
};

// "\u202Eevil" draws as "live" in most renderers; the zero-width space hides inside a word and a key.
const HIDDEN_ARGS = {
  recipient: '\u202Eevil',
  body: 'Refund\u200Bapproved',
  reason: 'The customer asked for it',
  meta: { ['pri\u200Bority']: 'high' },
};
const CONTEXT = { user_id: 'cust-42', roles: ['support'], state: { ticket: 'T-1001' } };

async function postOk(
  request: APIRequestContext,
  url: string,
  data: unknown,
  expected: number,
  headers: Record<string, string> = ADMIN,
): Promise<Record<string, unknown>> {
  const response = await request.post(url, { headers, data });
  const body = (await response.json()) as Record<string, unknown>;
  expect(response.status(), JSON.stringify(body)).toBe(expected);
  return body;
}

async function snap(page: Page, testInfo: TestInfo, name: string) {
  const path = testInfo.outputPath(`${name}.png`);
  await page.screenshot({ path, fullPage: true });
  await testInfo.attach(name, { path, contentType: 'image/png' });
}

test('the approval card labels the agent’s claims, reveals hidden characters, links trace and contract, says why the viewer cannot act, and diffs an edit', async ({
  page,
  request,
  baseURL,
}, testInfo) => {
  test.setTimeout(120_000);
  let agentKey = '';
  const pre = async (callId: string, args: Record<string, unknown>) => {
    const answer = await postOk(request, '/api/v1/validate/pre', { tool: TOOL, call_id: callId, arguments: args, context: CONTEXT }, 200, {
      authorization: `Bearer ${agentKey}`,
    });
    expect(answer.decision).toBe('require_approval');
    return { id: String((answer.approval as { id: string }).id), traceId: String(answer.trace_id) };
  };

  await test.step('setup through the API: a contract, a policy needing two admins, an agent key', async () => {
    await postOk(request, '/api/v1/contracts', NOTE_CONTRACT, 201);
    await postOk(request, `/api/v1/contracts/${TOOL}/versions/${VERSION}/publish`, {}, 200);
    await postOk(request, '/api/v1/policies', NOTE_REVIEW, 201);
    await postOk(request, `/api/v1/policies/${NOTE_REVIEW.id}/versions/${NOTE_REVIEW.version}/publish`, {}, 200);
    agentKey = String((await postOk(request, '/api/v1/api-keys', { name: 'note agent', scopes: ['validate'] }, 201)).key);
  });

  const hidden = await pre('card-hidden-1', HIDDEN_ARGS);
  const edited = await pre('card-edited-1', { recipient: 'ops@example.com', body: 'Original body', reason: 'follow-up' });
  await test.step('an admin (the init key) approves the second call with an edited body: one of two votes', async () => {
    const vote = await postOk(
      request,
      `/api/v1/approvals/${edited.id}/decision`,
      { decision: 'approve', arguments: { recipient: 'ops@example.com', body: 'Edited body', reason: 'follow-up' } },
      200,
    );
    expect(vote).toMatchObject({ status: 'pending', edited: true, approvals: 1, approvers_required: 2 });
  });

  await seedMember(APPROVER);
  await signIn(page.request, baseURL, APPROVER);
  await page.goto('/approvals');
  const card = page.locator(`[data-testid="approval-row"][data-approval-id="${hidden.id}"]`);
  await expect(card).toBeVisible();

  await test.step('hidden and direction-changing characters are shown as badges and flagged', async () => {
    await expect(card.getByTestId('hidden-characters-warning')).toContainText('4 hidden or direction-changing characters');
    await expect(card.getByTestId('hidden-characters-warning')).toContainText('bidirectional control');
    await expect(card.getByTestId('hidden-characters-warning')).toContainText('zero-width character');
    const args = card.getByTestId('approval-arguments');
    await expect(args.locator('[data-code-point="U+202E"]')).toHaveCount(1);
    await expect(args.locator('[data-code-point="U+200B"]')).toHaveCount(2);
    await expect(args).toContainText('"<U+202E>evil"');
    await expect(args).toContainText('"Refund<U+200B>approved"');
    await expect(args).toContainText('"pri<U+200B>ority"');
    await expect(card.getByTestId('approval-reason')).toHaveText('Notes to customers are reviewed by <U+202E>admins.');
    // None of the characters themselves reached the page.
    const text = await card.innerText();
    expect(text).not.toContain('\u202E');
    expect(text).not.toContain('\u200B');
    await snap(page, testInfo, 'approval-card-hidden');
  });

  await test.step("the agent's claims are labelled as such, apart from what Toolgate established", async () => {
    const claims = card.getByTestId('agent-claims');
    await expect(claims).toContainText('Agent’s claim · unverified');
    await expect(claims.getByTestId('claimed-user')).toHaveText('cust-42');
    await expect(claims.getByTestId('claimed-roles')).toHaveText('support');
    await expect(claims.getByTestId('claimed-reason')).toContainText('The customer asked for it');
    await expect(claims.getByTestId('claimed-state')).toContainText('T-1001');
    const facts = card.getByTestId('established-facts');
    await expect(facts).toContainText('Established by Toolgate');
    await expect(facts.getByTestId('approval-call-id')).toHaveText('card-hidden-1');
    await expect(facts).toContainText('note agent');
    await expect(facts).toContainText('external');
    await expect(facts.getByTestId('approval-rule')).toContainText(`${NOTE_REVIEW.id}@${NOTE_REVIEW.version}`);
    await expect(facts.getByTestId('approval-rule')).toContainText('notes-need-review');
    await expect(facts.getByTestId('policy-link')).toHaveAttribute('href', `/policies/${NOTE_REVIEW.id}?version=${NOTE_REVIEW.version}`);
    // The claims are not inside the facts, and the reverse.
    await expect(facts).not.toContainText('cust-42');
    await expect(claims).not.toContainText('note agent');
  });

  await test.step('an approver without the role sees why they cannot act, and no buttons', async () => {
    await expect(card.getByTestId('cannot-decide-reason')).toHaveText(
      'Deciding this call needs one of the roles: admin; your role is approver.',
    );
    await expect(card.getByTestId('cannot-decide-reason')).toHaveAttribute('data-code', 'role');
    await expect(card.getByTestId('approve-button')).toHaveCount(0);
    await expect(card.getByTestId('deny-button')).toHaveCount(0);
  });

  await test.step('the edited approval shows what the edit changed against the agent’s arguments', async () => {
    const editedCard = page.locator(`[data-testid="approval-row"][data-approval-id="${edited.id}"]`);
    await expect(editedCard.getByTestId('approval-votes')).toContainText('1 of 2');
    // The edit is the approver's, not the agent's: it sits outside the claims box.
    await expect(editedCard.getByTestId('edited-arguments')).toContainText('Edited by an approver');
    await expect(editedCard.getByTestId('agent-claims').getByTestId('approval-arguments')).toHaveCount(0);
    const change = editedCard.getByTestId('edited-arguments').getByTestId('arguments-diff').getByTestId('diff-change');
    await expect(change).toHaveCount(1);
    await expect(change).toHaveAttribute('data-kind', 'changed');
    await expect(change).toContainText('$.body');
    await expect(change).toContainText('"Original body"');
    await expect(change).toContainText('"Edited body"');
    await expect(editedCard.getByTestId('approval-arguments')).toContainText('"Edited body"');
    await snap(page, testInfo, 'approval-card-edited');
  });

  await test.step('the links lead to the trace and to the contract version', async () => {
    await card.getByTestId('trace-link').click();
    await expect(page).toHaveURL(new RegExp(`/traces/${hidden.traceId}$`));
    await expect(page.getByTestId('trace-call-id')).toHaveText('card-hidden-1');
    const traceApproval = page.getByTestId('trace-approval');
    await expect(traceApproval.getByTestId('agent-claims')).toContainText('Agent’s claim · unverified');
    await expect(traceApproval.getByTestId('claimed-user')).toHaveText('cust-42');

    await page.goto('/approvals');
    await page.locator(`[data-testid="approval-row"][data-approval-id="${hidden.id}"]`).getByTestId('contract-link').click();
    await expect(page).toHaveURL(new RegExp(`/contracts/${TOOL.replace('.', '\\.')}\\?version=${VERSION.replace(/\./g, '\\.')}$`));
    await expect(page.getByRole('heading', { name: TOOL, level: 1 })).toBeVisible();
  });

  await test.step('an admin may act; the edit form shows hidden characters as escapes that survive the edit', async () => {
    await signIn(page.request, baseURL, E2E_ADMIN);
    await page.goto('/approvals');
    const asAdmin = page.locator(`[data-testid="approval-row"][data-approval-id="${hidden.id}"]`);
    await expect(asAdmin.getByTestId('cannot-decide-reason')).toHaveCount(0);
    await expect(asAdmin.getByTestId('approve-button')).toBeVisible();
    // A zero-width space typed into the comment is flagged before it is sent.
    await asAdmin.getByTestId('decision-comment').fill('ok\u200B');
    await expect(asAdmin.getByTestId('hidden-characters-warning')).toHaveCount(2);
    await asAdmin.getByTestId('decision-comment').fill('Only the body changes.');
    await asAdmin.getByTestId('edit-button').click();
    const box = asAdmin.getByTestId('edit-arguments');
    const text = await box.inputValue();
    expect(text).toContain('"recipient": "\\u202eevil"');
    expect(text).toContain('"pri\\u200bority"');
    expect(text).not.toContain('\u202E');
    await box.fill(text.replace('Refund\\u200bapproved', 'Refund approved'));
    await asAdmin.getByTestId('approve-edited-button').click();
    // One vote of two: still pending, and the diff names the body alone, so the escaped
    // recipient and key parsed back to exactly the agent's values.
    await expect(asAdmin.getByTestId('approval-votes')).toContainText('1 of 2');
    const change = asAdmin.getByTestId('diff-change');
    await expect(change).toHaveCount(1);
    await expect(change).toContainText('$.body');
    await expect(change).toContainText('"Refund<U+200B>approved"');
    await expect(change).toContainText('"Refund approved"');
    await snap(page, testInfo, 'approval-card-admin-edit');
  });
});
