import { beforeAll, describe, expect, it } from 'vitest';
import { DRAFT_MEDIA_TYPE } from '@/lib/api/handlers/draft-body';
import { saveContractDraftHandler as saveContract, publishContractVersionHandler as publishContract } from '@/lib/api/handlers/contracts';
import { publishPolicyVersionHandler as publishPolicy, savePolicyDraftHandler as savePolicy } from '@/lib/api/handlers/policies';
import { createApiKey } from '@/lib/auth/api-keys';
import { getDocumentVersionOrThrow } from '@/lib/documents/get-document-version-or-throw';
import { call } from '@/lib/testing/api-client';
import { createTestTenant } from '@/lib/testing/fixtures';

// Two authors (or two tabs) editing one draft: the studio sends the content hash its edit started
// from, and a save or publish over someone else's newer save is refused instead of losing it.

let t: Awaited<ReturnType<typeof createTestTenant>>;
let key: string;

beforeAll(async () => {
  t = await createTestTenant();
  key = (await createApiKey({ tenantId: t.tenant.id, name: 'studio', scopes: ['author'] })).key;
});

const contract = (description: string) => ({
  id: 'race.tool',
  version: '1.0.0',
  description,
  owner: 'team-race',
  input: { type: 'object', properties: { q: { type: 'string' } } },
  annotations: { kind: 'query', side_effect_level: 'read_only', idempotent: true },
});
const policy = (reason: string) => ({
  id: 'race-policy',
  version: '1.0.0',
  rules: [{ id: 'hold', tools: ['race.tool'], decision: 'require_approval', roles: ['admin'], reason }],
});
const envelope = (document: Record<string, unknown>, expected?: string | null) => ({
  key,
  headers: { 'content-type': DRAFT_MEDIA_TYPE },
  body: {
    document,
    source: { format: 'json', text: JSON.stringify(document, null, 2) },
    ...(expected !== undefined ? { expected_content_hash: expected } : {}),
  },
});

describe.each([
  { kind: 'contract', save: saveContract, publish: publishContract, doc: contract, id: 'race.tool' },
  { kind: 'policy', save: savePolicy, publish: publishPolicy, doc: policy, id: 'race-policy' },
] as const)('a $kind draft saved from two tabs', ({ kind, save, publish, doc, id }) => {
  it('refuses the second save over the first instead of losing it, and publishes only the text the author saw', async () => {
    const first = await call(save, envelope(doc('opened'), null));
    expect(first.status).toBe(201);
    const opened: string = first.body.contentHash;

    // Tab A saves on top of what both opened.
    const a = await call(save, envelope(doc('A-edit'), opened));
    expect(a.status).toBe(200);
    // Tab B, still on the opened text, is refused and told the current hash; A's text stays.
    const b = await call(save, envelope(doc('B-edit'), opened));
    expect(b.status).toBe(409);
    expect(b.body.error).toMatchObject({ code: 'conflict', details: { reason: 'changed_since_loaded', content_hash: a.body.contentHash } });
    expect(b.body.error.message).toContain('saved by someone else since you loaded it');
    // A version the tab thought had no draft has one now (a "new" page starts from none): said so.
    const fresh = await call(save, envelope(doc('B-edit'), null));
    expect(fresh.status).toBe(409);
    expect(fresh.body.error).toMatchObject({ details: { reason: 'changed_since_loaded', content_hash: a.body.contentHash } });
    expect(fresh.body.error.message).toContain('already has a draft that someone else saved');
    const stored = await getDocumentVersionOrThrow({ tenantId: t.tenant.id, kind, id, version: '1.0.0' });
    expect(JSON.stringify(stored.document)).toContain('A-edit');

    // Publishing checks the same: B cannot publish A's text it never saw; A can.
    const params = { id, version: '1.0.0' };
    const blind = await call(publish, { key, params, body: { expected_content_hash: opened } });
    expect(blind.status).toBe(409);
    expect(blind.body.error.details).toMatchObject({ reason: 'changed_since_loaded', content_hash: a.body.contentHash });
    const seen = await call(publish, { key, params, body: { expected_content_hash: a.body.contentHash } });
    expect(seen.status).toBe(200);
    expect(seen.body.contentHash).toBe(a.body.contentHash);

    // Without the field (API clients writing whole documents) nothing changes; a bad hash is a 400.
    expect((await call(save, envelope({ ...doc('x'), version: '1.1.0' }))).status).toBe(201);
    expect((await call(save, envelope({ ...doc('y'), version: '1.1.0' }, 'ABC'))).status).toBe(400);
    expect((await call(publish, { key, params: { id, version: '1.1.0' }, body: { expected_content_hash: 'not-a-hash' } })).status).toBe(
      400,
    );
  });
});
