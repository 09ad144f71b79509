import { beforeAll, describe, expect, it } from 'vitest';
import { lookupOrderContract } from '@/lib/contracts/examples';
import { call } from '@/lib/testing/api-client';
import { createTestTenant } from '@/lib/testing/fixtures';
import { createApiKey } from '@/lib/auth/api-keys';
import {
  listContractsHandler as listContracts,
  saveContractDraftHandler as saveDraft,
  getContractVersionHandler as getVersion,
  publishContractVersionHandler as publish,
  deprecateContractHandler as deprecate,
  importContractsHandler as importContracts,
  exportContractHandler as exportContract,
} from '@/lib/api/handlers/contracts';
import { validatePreHandler as validatePre } from '@/lib/api/handlers/validate';

let t: Awaited<ReturnType<typeof createTestTenant>>;
let other: Awaited<ReturnType<typeof createTestTenant>>;
let authorKey: string;

beforeAll(async () => {
  t = await createTestTenant();
  other = await createTestTenant();
  authorKey = (await createApiKey({ tenantId: t.tenant.id, name: 'ci', scopes: ['author'] })).key;
});

const doc = (version: string, patch: Record<string, unknown> = {}) => ({ ...lookupOrderContract, version, ...patch });
const lookupCall = (key: string, extra: Record<string, unknown> = {}) =>
  call(validatePre, {
    key,
    body: {
      tool: 'orders.lookup',
      call_id: `r-${Math.random()}`,
      arguments: { tenant_id: 'acme', order_id: 'ord_abc123' },
      context: { tenant_id: 'acme' },
      ...extra,
    },
  });

describe('contract registry', () => {
  it('drafts are not served; publishing freezes a version with its content hash', async () => {
    const created = await call(saveDraft, { key: authorKey, body: doc('1.0.0') });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ tool: 'orders.lookup', version: '1.0.0', status: 'draft' });
    expect((await lookupCall(t.agentKey)).body.errors[0].code).toBe('AXAG_UNKNOWN_TOOL');

    const replaced = await call(saveDraft, { key: authorKey, body: doc('1.0.0', { description: 'Draft, edited.' }) });
    expect(replaced.status).toBe(200);

    const published = await call(publish, {
      key: authorKey,
      params: { id: 'orders.lookup', version: '1.0.0' },
      body: { change_note: 'first' },
    });
    expect(published.status).toBe(200);
    expect(published.body.contentHash).toMatch(/^[0-9a-f]{64}$/);

    const fetched = await call(getVersion, { key: t.agentKey, params: { id: 'orders.lookup', version: '1.0.0' } });
    expect(fetched.body).toMatchObject({ status: 'published', contentHash: published.body.contentHash, changeNote: 'first' });
    expect(fetched.body.document.description).toBe('Draft, edited.');

    const again = await call(saveDraft, { key: authorKey, body: doc('1.0.0', { description: 'sneaky edit' }) });
    expect(again.status).toBe(409);
    expect((await call(publish, { key: authorKey, params: { id: 'orders.lookup', version: '1.0.0' }, body: {} })).status).toBe(409);

    const ok = await lookupCall(t.agentKey);
    expect(ok.body).toMatchObject({ decision: 'allow', version: '1.0.0', contract_hash: published.body.contentHash });
  });

  it('serves the latest published version unless the call pins one, and versions only move forward', async () => {
    await call(saveDraft, {
      key: authorKey,
      body: doc('1.1.0', { input: { ...lookupOrderContract.input, required: ['tenant_id', 'order_id', 'include'] } }),
    });
    expect((await call(publish, { key: authorKey, params: { id: 'orders.lookup', version: '1.1.0' }, body: {} })).status).toBe(200);
    const latest = await lookupCall(t.agentKey);
    expect(latest.body.version).toBe('1.1.0');
    expect(latest.body.errors.map((e: { code: string }) => e.code)).toEqual(['AXAG_MISSING_PARAM']);
    const pinned = await lookupCall(t.agentKey, { version: '1.0.0' });
    expect(pinned.body).toMatchObject({ version: '1.0.0', decision: 'allow' });

    await call(saveDraft, { key: authorKey, body: doc('0.9.0') });
    const backwards = await call(publish, { key: authorKey, params: { id: 'orders.lookup', version: '0.9.0' }, body: {} });
    expect(backwards.status).toBe(409);
    expect(backwards.body.error.details.latest_version).toBe('1.1.0');

    // Deprecating the older version ends its pins: they kept its looser rules after 1.1.0 tightened them.
    expect((await call(deprecate, { key: authorKey, params: { id: 'orders.lookup' }, body: { version: '1.0.0' } })).status).toBe(200);
    const refused = await lookupCall(t.agentKey, { version: '1.0.0' });
    expect(refused.status).toBe(200);
    expect(refused.body.decision).toBe('deny');
    expect(refused.body.errors).toEqual([
      expect.objectContaining({
        code: 'AXAG_VERSION_NOT_FOUND',
        path: '$.version',
        details: expect.objectContaining({ reason: 'deprecated' }),
      }),
    ]);
    expect(refused.body.errors[0].message).toContain('deprecated and can no longer be pinned');
    expect((await lookupCall(t.agentKey, { version: '1.1.0' })).body.version).toBe('1.1.0');
    expect((await lookupCall(t.agentKey)).body.version).toBe('1.1.0');
  });

  it('refuses to publish a contract that does not compile (422 with problems)', async () => {
    const bad = doc('2.0.0', { input: { type: 'object', properties: { name: { type: 'string', pattern: '(a)\\1' } } } });
    expect((await call(saveDraft, { key: authorKey, body: bad })).status).toBe(201);
    const res = await call(publish, { key: authorKey, params: { id: 'orders.lookup', version: '2.0.0' }, body: {} });
    expect(res.status).toBe(422);
    expect(res.body.error.code).toBe('contract_invalid');
    expect(res.body.error.details.problems.map((p: { code: string }) => p.code)).toContain('CONTRACT_REGEX_UNSAFE');

    const remote = doc('2.0.1', { input: { $ref: 'https://example.com/schema.json' } });
    await call(saveDraft, { key: authorKey, body: remote });
    const remoteRes = await call(publish, { key: authorKey, params: { id: 'orders.lookup', version: '2.0.1' }, body: {} });
    expect(remoteRes.status).toBe(422);
    expect(remoteRes.body.error.details.problems.map((p: { code: string }) => p.code)).toContain('CONTRACT_REMOTE_REF');

    const shape = await call(saveDraft, { key: authorKey, body: { id: 'Not A Tool', version: 'one' } });
    expect(shape.status).toBe(422);
    expect(shape.body.error.details.problems.length).toBeGreaterThan(0);
  });

  it('warns when the served contract is deprecated', async () => {
    const res = await call(deprecate, { key: authorKey, params: { id: 'orders.lookup' }, body: {} });
    expect(res.status).toBe(200);
    const call1 = await lookupCall(t.agentKey, { arguments: { tenant_id: 'acme', order_id: 'ord_abc123', include: ['items'] } });
    expect(call1.body.decision).toBe('allow');
    expect(call1.body.warnings.map((w: { code: string }) => w.code)).toEqual(['AXAG_CONTRACT_DEPRECATED']);
  });

  it('keeps each tenant to its own contracts', async () => {
    expect((await lookupCall(other.agentKey)).body.errors[0].code).toBe('AXAG_UNKNOWN_TOOL');
    expect((await call(getVersion, { key: other.agentKey, params: { id: 'orders.lookup', version: '1.0.0' } })).status).toBe(404);
    expect((await call(publish, { key: other.adminKey, params: { id: 'orders.lookup', version: '0.9.0' }, body: {} })).status).toBe(404);
    expect((await call(listContracts, { key: other.adminKey })).body.contracts).toEqual([]);
    const mine = await call(listContracts, { key: authorKey });
    expect(mine.body.contracts.map((c: { tool: string }) => c.tool)).toEqual(['orders.lookup']);
    expect(mine.body.contracts[0].latestVersion).toBe('1.1.0');
  });
});

describe('import and export of tool definitions', () => {
  const mcpList = JSON.stringify({
    tools: [
      {
        name: 'get_weather',
        description: 'Current weather for a city.',
        inputSchema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
        annotations: { readOnlyHint: true },
      },
      { name: 'delete_file', description: 'Deletes a file.', inputSchema: { type: 'object', properties: { path: { type: 'string' } } } },
    ],
  });

  it('drafts contracts from an MCP tools/list result, flags hints for review, and saves them only when asked', async () => {
    const preview = await call(importContracts, { key: authorKey, body: { text: mcpList, namespace: 'weather' } });
    expect(preview.status).toBe(200);
    expect(
      preview.body.contracts.map((c: { document: { id: string; annotations: { side_effect_level: string } } }) => [
        c.document.id,
        c.document.annotations.side_effect_level,
      ]),
    ).toEqual([
      ['weather.get_weather', 'read_only'],
      ['weather.delete_file', 'destructive'],
    ]);
    expect(preview.body.contracts[0].notes.length).toBeGreaterThan(0);
    expect(preview.body.saved).toEqual([]);
    expect((await call(listContracts, { key: authorKey })).body.contracts.map((c: { tool: string }) => c.tool)).not.toContain(
      'weather.get_weather',
    );

    const saved = await call(importContracts, { key: authorKey, body: { text: mcpList, namespace: 'weather', save: true } });
    expect(saved.body.saved.map((s: { tool: string; status: string }) => [s.tool, s.status])).toEqual([
      ['weather.get_weather', 'draft'],
      ['weather.delete_file', 'draft'],
    ]);
    const garbage = await call(importContracts, { key: authorKey, body: { text: 'not json' } });
    expect(garbage.status).toBe(200);
    expect(garbage.body.problems[0].code).toBe('IMPORT_NOT_JSON');

    // A bound a double cannot hold is refused, not drafted as Infinity (the save answered 500),
    // 9007199254740992 or 0, and nothing of the paste is saved.
    const unrepresentable = (n: string) =>
      `{"tools":[{"name":"bounded_${n.length}","inputSchema":{"type":"object","properties":{"n":{"type":"integer","maximum":${n}}}}}]}`;
    for (const n of ['1e400', '9007199254740993', '1e-400']) {
      const refused = await call(importContracts, { key: authorKey, body: { text: unrepresentable(n), namespace: 'nums', save: true } });
      expect(refused.status).toBe(200);
      expect(refused.body).toMatchObject({ contracts: [], saved: [] });
      expect(refused.body.problems).toEqual([
        { code: 'IMPORT_NUMBER_UNREPRESENTABLE', path: '$.tools[0].inputSchema.properties.n.maximum', message: expect.stringContaining(n) },
      ]);
    }
    expect(
      (await call(listContracts, { key: authorKey })).body.contracts.filter((c: { tool: string }) => c.tool.startsWith('nums.')),
    ).toEqual([]);
    expect((await call(importContracts, { key: t.agentKey, body: { text: mcpList } })).status).toBe(403);
  });

  it('exports a published version as an MCP tool, and as OpenAI and Anthropic tools', async () => {
    await call(saveDraft, { key: authorKey, body: doc('3.0.0') });
    await call(publish, { key: authorKey, params: { id: 'orders.lookup', version: '3.0.0' }, body: {} });
    const mcp = await call(exportContract, { key: t.agentKey, path: '/x?format=mcp', params: { id: 'orders.lookup', version: '3.0.0' } });
    expect(mcp.status).toBe(200);
    expect(mcp.body.tool).toMatchObject({
      name: 'orders.lookup',
      inputSchema: lookupOrderContract.input,
      annotations: { readOnlyHint: true },
    });
    const anthropic = await call(exportContract, {
      key: t.agentKey,
      path: '/x?format=anthropic',
      params: { id: 'orders.lookup', version: '3.0.0' },
    });
    expect(anthropic.body.tool).toMatchObject({ name: 'orders_lookup', input_schema: lookupOrderContract.input });
    expect(
      (await call(exportContract, { key: t.agentKey, path: '/x?format=word', params: { id: 'orders.lookup', version: '3.0.0' } })).status,
    ).toBe(400);
    expect(
      (await call(exportContract, { key: other.agentKey, path: '/x?format=mcp', params: { id: 'orders.lookup', version: '3.0.0' } }))
        .status,
    ).toBe(404);
  });
});
