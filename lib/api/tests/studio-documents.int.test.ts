import { beforeAll, describe, expect, it } from 'vitest';
import { lookupOrderContract, refundPaymentContract } from '@/lib/contracts/examples';
import { call } from '@/lib/testing/api-client';
import { createTestTenant, publishContract as publishContractFixture } from '@/lib/testing/fixtures';
import { createApiKey } from '@/lib/auth/api-keys';
import { db } from '@/lib/db';
import {
  listPoliciesHandler as listPolicies,
  savePolicyDraftHandler as savePolicy,
  getPolicyVersionHandler as getPolicyVersion,
  publishPolicyVersionHandler as publishPolicy,
} from '@/lib/api/handlers/policies';
import {
  saveSurfaceDraftHandler as saveSurface,
  getSurfaceVersionHandler as getSurfaceVersion,
  publishSurfaceVersionHandler as publishSurface,
} from '@/lib/api/handlers/surfaces';
import { saveContractDraftHandler as saveContract, publishContractVersionHandler as publishContract } from '@/lib/api/handlers/contracts';
import { lintHandler as lint } from '@/lib/api/handlers/lint';

let t: Awaited<ReturnType<typeof createTestTenant>>;
let other: Awaited<ReturnType<typeof createTestTenant>>;
let authorKey: string;
let otherAuthorKey: string;

beforeAll(async () => {
  t = await createTestTenant();
  other = await createTestTenant();
  authorKey = (await createApiKey({ tenantId: t.tenant.id, name: 'ci', scopes: ['author'] })).key;
  otherAuthorKey = (await createApiKey({ tenantId: other.tenant.id, name: 'ci', scopes: ['author'] })).key;
});

const policy = (version: string, patch: Record<string, unknown> = {}) => ({
  id: 'support-default',
  version,
  description: 'What the support agent may do.',
  capability: { tools: ['orders.*'], side_effect_ceiling: 'write' },
  approval: { rules: [{ tools: ['orders.refund'], roles: ['finance'], expires_in_seconds: 3600, approvers_required: 1 }] },
  ...patch,
});

const surface = (version: string, tools: unknown[], patch: Record<string, unknown> = {}) => ({
  id: 'support-agent',
  version,
  tools,
  policy: { tools: ['*'], side_effect_ceiling: 'write' },
  system: 'You help customers with their orders.',
  tool_search: false,
  ...patch,
});

const inlineTool = (name: string, level: string) => ({
  name,
  description: `The ${name} tool.`,
  parameters: { type: 'object', properties: { id: { type: 'string' } } },
  annotations: { kind: 'mutation', side_effect_level: level, inline_result: true },
  executor: 'svc',
});

const codes = (body: { error?: { details?: { diagnostics?: { code: string; severity: string }[] } } }) =>
  (body.error?.details?.diagnostics ?? []).filter((d) => d.severity === 'error').map((d) => d.code);

describe('policies and surfaces: drafts, publishing, history', () => {
  it('saves drafts, publishes one, freezes it, and lists both versions with the served one', async () => {
    const created = await call(savePolicy, { key: authorKey, body: policy('1.0.0') });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ id: 'support-default', version: '1.0.0', status: 'draft' });
    expect((await call(savePolicy, { key: authorKey, body: policy('1.0.0', { description: 'edited' }) })).status).toBe(200);

    const published = await call(publishPolicy, {
      key: authorKey,
      params: { id: 'support-default', version: '1.0.0' },
      body: { change_note: 'first' },
    });
    expect(published.status).toBe(200);
    expect(published.body).toMatchObject({ status: 'published', contentHash: expect.stringMatching(/^[0-9a-f]{64}$/) });

    const fetched = await call(getPolicyVersion, { key: t.agentKey, params: { id: 'support-default', version: '1.0.0' } });
    expect(fetched.body).toMatchObject({ status: 'published', served: true, changeNote: 'first' });
    expect(fetched.body.document.description).toBe('edited');

    const frozen = await call(savePolicy, { key: authorKey, body: policy('1.0.0', { description: 'sneaky' }) });
    expect(frozen.status).toBe(409);
    expect(frozen.body.error.code).toBe('conflict');

    await call(savePolicy, { key: authorKey, body: policy('1.1.0') });
    const listed = await call(listPolicies, { key: authorKey });
    expect(listed.status).toBe(200);
    expect(listed.body.policies).toEqual([
      expect.objectContaining({
        id: 'support-default',
        latestVersion: '1.0.0',
        versions: [
          expect.objectContaining({ version: '1.1.0', status: 'draft' }),
          expect.objectContaining({ version: '1.0.0', status: 'published' }),
        ],
      }),
    ]);
  });

  it('keeps tenants apart and checks scopes', async () => {
    expect((await call(getPolicyVersion, { key: other.agentKey, params: { id: 'support-default', version: '1.0.0' } })).status).toBe(404);
    expect((await call(publishPolicy, { key: otherAuthorKey, params: { id: 'support-default', version: '1.1.0' }, body: {} })).status).toBe(
      404,
    );
    expect((await call(savePolicy, { key: t.agentKey, body: policy('9.0.0') })).status).toBe(403);
    expect((await call(savePolicy, { body: policy('9.0.0') })).status).toBe(401);
    expect((await call(savePolicy, { key: authorKey, body: { id: 'Not A Name', version: '1.0.0' } })).status).toBe(400);
  });

  it('refuses to publish a document with error diagnostics (409 lint_errors) and leaves it a draft', async () => {
    await call(saveSurface, { key: authorKey, body: surface('1.0.0', [inlineTool('wipe_disk', 'destructive')]) });
    const refused = await call(publishSurface, { key: authorKey, params: { id: 'support-agent', version: '1.0.0' }, body: {} });
    expect(refused.status).toBe(409);
    expect(refused.body.error.code).toBe('lint_errors');
    expect(codes(refused.body)).toContain('TOOL_SURFACE_SIDE_EFFECT_CEILING_EXCEEDED');
    const still = await call(getSurfaceVersion, { key: authorKey, params: { id: 'support-agent', version: '1.0.0' } });
    expect(still.body).toMatchObject({ status: 'draft', served: false });

    await call(saveSurface, { key: authorKey, body: surface('1.0.0', [inlineTool('note_add', 'write')]) });
    expect((await call(publishSurface, { key: authorKey, params: { id: 'support-agent', version: '1.0.0' }, body: {} })).status).toBe(200);
  });

  it('lints a surface against the contracts the tenant has published', async () => {
    const body = surface('2.0.0', [{ contract: 'orders.lookup', executor: 'orders' }]);
    await call(saveSurface, { key: authorKey, body });
    const before = await call(publishSurface, { key: authorKey, params: { id: 'support-agent', version: '2.0.0' }, body: {} });
    expect(before.status).toBe(409);
    expect(codes(before.body).length).toBeGreaterThan(0);

    // Another tenant's contract of the same id does not count.
    await call(saveContract, { key: otherAuthorKey, body: lookupOrderContract });
    await call(publishContract, { key: otherAuthorKey, params: { id: 'orders.lookup', version: lookupOrderContract.version }, body: {} });
    expect((await call(publishSurface, { key: authorKey, params: { id: 'support-agent', version: '2.0.0' }, body: {} })).status).toBe(409);

    await call(saveContract, { key: authorKey, body: lookupOrderContract });
    expect(
      (await call(publishContract, { key: authorKey, params: { id: 'orders.lookup', version: lookupOrderContract.version }, body: {} }))
        .status,
    ).toBe(200);
    expect((await call(publishSurface, { key: authorKey, params: { id: 'support-agent', version: '2.0.0' }, body: {} })).status).toBe(200);
  });

  it('refuses to publish a contract the linter finds errors in, though it compiles', async () => {
    const broken = {
      ...lookupOrderContract,
      id: 'orders.lookup_broken',
      version: '1.0.0',
      input: { ...lookupOrderContract.input, required: ['tenant_id', 'order_id', 'ordr_id'] },
    };
    expect((await call(saveContract, { key: authorKey, body: broken })).status).toBe(201);
    const refused = await call(publishContract, { key: authorKey, params: { id: 'orders.lookup_broken', version: '1.0.0' }, body: {} });
    expect(refused.status).toBe(409);
    expect(refused.body.error.code).toBe('lint_errors');
    const row = await db().contractVersion.findFirst({ where: { tenantId: t.tenant.id, contract: { name: 'orders.lookup_broken' } } });
    expect(row?.status).toBe('draft');
  });

  it('refuses to publish a contract whose test cases fail, and publishes it once they pass', async () => {
    const withTest = (decision: string) => ({
      ...lookupOrderContract,
      id: 'orders.lookup_tested',
      version: '1.0.0',
      tests: [
        {
          name: 'bad id',
          arguments: { tenant_id: 'acme', order_id: 'nope' },
          context: { tenant_id: 'acme' },
          expect: { decision, errors: ['AXAG_PATTERN_MISMATCH'] },
        },
      ],
    });
    await call(saveContract, { key: authorKey, body: withTest('allow') });
    const refused = await call(publishContract, { key: authorKey, params: { id: 'orders.lookup_tested', version: '1.0.0' }, body: {} });
    expect(refused.status).toBe(409);
    expect(codes(refused.body)).toEqual(['CONTRACT_TEST_FAILED']);
    await call(saveContract, { key: authorKey, body: withTest('deny') });
    expect(
      (await call(publishContract, { key: authorKey, params: { id: 'orders.lookup_tested', version: '1.0.0' }, body: {} })).status,
    ).toBe(200);
  });
});

describe('POST /api/v1/lint', () => {
  it('answers diagnostics with ranges for each document, and valid overall', async () => {
    const response = await call(lint, {
      key: authorKey,
      body: {
        documents: [
          { name: 'ok.json', kind: 'policy', text: JSON.stringify(policy('1.0.0'), null, 2) },
          { name: 'broken.yaml', kind: 'contract', text: 'id: orders.x\nversion: [1\n' },
        ],
      },
    });
    expect(response.status).toBe(200);
    expect(response.body.valid).toBe(false);
    expect(response.body.results[0]).toMatchObject({ name: 'ok.json', valid: true });
    expect(response.body.results[1]).toMatchObject({ name: 'broken.yaml', valid: false });
    expect(response.body.results[1].diagnostics[0]).toMatchObject({
      code: 'DOCUMENT_PARSE_ERROR',
      severity: 'error',
      range: { startLine: expect.any(Number) },
    });
  });

  it('reads a text that starts with a byte order mark as the CLI reads the file: without it', async () => {
    const text = JSON.stringify(policy('1.0.0'), null, 2);
    const response = await call(lint, {
      key: authorKey,
      body: {
        documents: [
          { name: 'bom.json', kind: 'policy', text: `\uFEFF${text}` },
          { name: 'bom.yaml', kind: 'policy', text: '\uFEFFid: bom\nversion: 1.0.0\n' },
        ],
      },
    });
    expect(response.status).toBe(200);
    expect(response.body.results.map((r: { valid: boolean; diagnostics: unknown[] }) => [r.valid, r.diagnostics])).toEqual([
      [true, []],
      [true, []],
    ]);
  });

  it("lints a policy's history paths against the caller's published contracts only", async () => {
    await publishContractFixture(t.tenant.id, refundPaymentContract);
    const text = JSON.stringify(
      policy('1.0.0', {
        limits: [{ id: 'budget', tools: ['payments.refund'], per: 'tenant', window: '1d', max_sum: { path: 'amount', value: 1000 } }],
      }),
      null,
      2,
    );
    const mine = await call(lint, { key: authorKey, body: { documents: [{ kind: 'policy', text }] } });
    expect(mine.status).toBe(200);
    expect(mine.body.results[0]).toMatchObject({
      valid: true,
      diagnostics: [
        {
          code: 'POLICY_HISTORY_UNKNOWN_PATH',
          severity: 'warning',
          path: '$.limits[0].max_sum.path',
          message: '"amount" is not in the input schema of the contract of payments.refund: their calls add 0 to the sum.',
        },
      ],
    });
    // The other tenant has no payments.refund contract: nothing is known, nothing is said.
    const theirs = await call(lint, { key: otherAuthorKey, body: { documents: [{ kind: 'policy', text }] } });
    expect(theirs.body.results[0].diagnostics).toEqual([]);
  });

  it('needs a key or session and bounds the request', async () => {
    expect((await call(lint, { body: { documents: [{ kind: 'policy', text: '{}' }] } })).status).toBe(401);
    expect((await call(lint, { key: authorKey, body: { documents: [] } })).status).toBe(400);
    expect((await call(lint, { key: authorKey, body: { documents: [{ kind: 'spreadsheet', text: '{}' }] } })).status).toBe(400);
  });
});

describe('NUL (U+0000) in what a save or publish keeps in text columns', () => {
  it('is refused alike on both databases, naming the field, and nothing is stored', async () => {
    const nul = await call(savePolicy, { key: authorKey, body: policy('7.0.0', { id: 'nul-description', description: 'a\u0000b' }) });
    expect(nul.status).toBe(400);
    expect(nul.body.error.message).toContain('description');
    expect(await db().studioDocument.count({ where: { tenantId: t.tenant.id, name: 'nul-description' } })).toBe(0);

    const contract = await call(saveContract, {
      key: authorKey,
      body: { ...lookupOrderContract, id: 'nul.owner', version: '1.0.0', owner: 'team\u0000x' },
    });
    expect(contract.status).toBe(400);
    expect(contract.body.error.message).toContain('owner');

    expect((await call(savePolicy, { key: authorKey, body: policy('7.0.0', { id: 'nul-note' }) })).status).toBe(201);
    const note = await call(publishPolicy, {
      key: authorKey,
      params: { id: 'nul-note', version: '7.0.0' },
      body: { change_note: 'x\u0000' },
    });
    expect(note.status).toBe(400);
    expect(note.body.error.message).toContain('change_note');
    expect((await call(getPolicyVersion, { key: authorKey, params: { id: 'nul-note', version: '7.0.0' } })).body.status).toBe('draft');
  });
});
