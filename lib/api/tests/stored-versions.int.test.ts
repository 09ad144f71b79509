import { beforeAll, describe, expect, it } from 'vitest';
import { lookupOrderContract } from '@/lib/contracts/examples';
import { call } from '@/lib/testing/api-client';
import { createTestTenant } from '@/lib/testing/fixtures';
import { createApiKey } from '@/lib/auth/api-keys';
import { db } from '@/lib/db';
import { saveContractDraftHandler as saveContract, publishContractVersionHandler as publishContract } from '@/lib/api/handlers/contracts';
import { savePolicyDraftHandler as savePolicy, publishPolicyVersionHandler as publishPolicy } from '@/lib/api/handlers/policies';
import { saveSurfaceDraftHandler as saveSurface } from '@/lib/api/handlers/surfaces';
import { lintHandler as lint } from '@/lib/api/handlers/lint';

// Versions SemVer 2.0.0 refuses (a leading zero in a number) were once saved and published;
// `semver.gt` throws on them, so every later publish of their document answered 500. They are
// refused now, and a document that already holds one still moves on.

let authorKey: string;

beforeAll(async () => {
  const t = await createTestTenant();
  authorKey = (await createApiKey({ tenantId: t.tenant.id, name: 'ci', scopes: ['author'] })).key;
});

const contract = (version: string, id = lookupOrderContract.id) => ({ ...lookupOrderContract, id, version });
const policy = (id: string, version: string) => ({
  id,
  version,
  description: 'What the support agent may do.',
  capability: { tools: ['orders.*'], side_effect_ceiling: 'write' },
});
const surface = (version: string) => ({
  id: 'versions-surface',
  version,
  tools: [
    {
      name: 'note_add',
      description: 'Adds a note.',
      parameters: { type: 'object', properties: {} },
      annotations: { kind: 'mutation', side_effect_level: 'write', inline_result: true },
      executor: 'svc',
    },
  ],
  policy: { tools: ['*'], side_effect_ceiling: 'write' },
  system: 'You add notes.',
  tool_search: false,
});

async function saveAndPublish(
  save: typeof savePolicy,
  publish: typeof publishPolicy,
  document: { id: string; version: string },
  mode = 'enforce',
) {
  const saved = await call(save, { key: authorKey, body: document });
  expect(saved.status, JSON.stringify(saved.body)).toBeLessThan(300);
  return call(publish, { key: authorKey, params: { id: document.id, version: document.version }, body: { mode } });
}

/** Rewrites a stored version as a row saved before versions were checked exactly would hold it. */
async function makeOldRow(kind: 'contract' | 'policy', id: string, from: string, to: string) {
  const rewrite = (document: string) => JSON.stringify({ ...JSON.parse(document), version: to });
  if (kind === 'contract') {
    const row = await db().contractVersion.findFirstOrThrow({ where: { version: from, contract: { name: id } } });
    await db().contractVersion.update({ where: { id: row.id }, data: { version: to, document: rewrite(row.document) } });
  } else {
    const row = await db().studioDocumentVersion.findFirstOrThrow({ where: { version: from, owner: { kind, name: id } } });
    await db().studioDocumentVersion.update({ where: { id: row.id }, data: { version: to, document: rewrite(row.document) } });
  }
}

describe('versions SemVer 2.0.0 refuses', () => {
  it.each(['1.0.0-01', '01.0.0', '1.0.0-1.02', '1.0.0+build.1', '99999999999999999.0.0'])(
    'refuses %s when a contract, a policy or a surface is saved or linted, saying what a version is',
    async (version) => {
      for (const [save, document, status] of [
        [saveContract, contract(version), 422],
        [savePolicy, policy('versions-refused', version), 400],
        [saveSurface, surface(version), 400],
      ] as const) {
        const saved = await call(save, { key: authorKey, body: document });
        expect(saved.status, JSON.stringify(saved.body)).toBe(status);
        expect(JSON.stringify(saved.body)).toContain('not `1.0.0-01`');
      }
      const linted = await call(lint, {
        key: authorKey,
        body: {
          documents: [
            { kind: 'contract', text: JSON.stringify(contract(version)) },
            { kind: 'policy', text: JSON.stringify(policy('versions-refused', version)) },
            { kind: 'surface', text: JSON.stringify(surface(version)) },
          ],
        },
      });
      expect(linted.status).toBe(200);
      for (const result of linted.body.results) {
        expect(result.valid).toBe(false);
        expect(result.diagnostics).toContainEqual(
          expect.objectContaining({ severity: 'error', message: expect.stringContaining('SemVer 2.0.0: numbers without leading zeros') }),
        );
      }
    },
  );

  it('accepts the versions SemVer 2.0.0 allows', async () => {
    for (const version of ['0.0.0', '1.0.0-0', '1.0.0-rc.1', '1.0.0-0a.1-x', '1.0.0--', '10.20.30-alpha.0.beta']) {
      const saved = await call(savePolicy, { key: authorKey, body: policy('versions-accepted', version) });
      expect(saved.status, `${version}: ${JSON.stringify(saved.body)}`).toBeLessThan(300);
    }
  });
});

describe('a document whose stored version SemVer 2.0.0 refuses', () => {
  it('publishes a contract past a served 1.0.0-01, and still refuses one that does not go up', async () => {
    expect((await saveAndPublish(saveContract, publishContract, contract('1.0.0-1', 'orders.versioned'))).status).toBe(200);
    await makeOldRow('contract', 'orders.versioned', '1.0.0-1', '1.0.0-01');

    const behind = await saveAndPublish(saveContract, publishContract, contract('0.9.0', 'orders.versioned'));
    expect(behind.status, JSON.stringify(behind.body)).toBe(409);
    expect(behind.body.error).toMatchObject({ code: 'conflict', details: { latest_version: '1.0.0-01' } });

    const published = await saveAndPublish(saveContract, publishContract, contract('2.0.0', 'orders.versioned'));
    expect(published.status, JSON.stringify(published.body)).toBe(200);
    expect(published.body).toMatchObject({ version: '2.0.0', status: 'published' });
  });

  it('enforces a policy beside a shadow 1.0.0-00, and retires the shadow', async () => {
    const id = 'versions-shadowed';
    expect((await saveAndPublish(savePolicy, publishPolicy, policy(id, '0.1.0'))).status).toBe(200);
    expect((await saveAndPublish(savePolicy, publishPolicy, policy(id, '1.0.0-0'), 'shadow')).status).toBe(200);
    await makeOldRow('policy', id, '1.0.0-0', '1.0.0-00');

    const published = await saveAndPublish(savePolicy, publishPolicy, policy(id, '2.0.0'));
    expect(published.status, JSON.stringify(published.body)).toBe(200);
    const versions = await db().studioDocumentVersion.findMany({ where: { owner: { name: id } }, select: { version: true, status: true } });
    expect(Object.fromEntries(versions.map((v) => [v.version, v.status]))).toEqual({
      '0.1.0': 'published',
      '1.0.0-00': 'retired',
      '2.0.0': 'published',
    });
  });
});
