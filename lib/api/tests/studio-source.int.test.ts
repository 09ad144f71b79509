import { beforeAll, describe, expect, it } from 'vitest';
import { editorText } from '@/components/studio/document-format';
import { DRAFT_MEDIA_TYPE } from '@/lib/api/handlers/draft-body';
import { saveContractDraftHandler as saveContract, publishContractVersionHandler as publishContract } from '@/lib/api/handlers/contracts';
import { getPolicyVersionHandler as getPolicyVersion, savePolicyDraftHandler as savePolicy } from '@/lib/api/handlers/policies';
import { saveSurfaceDraftHandler as saveSurface } from '@/lib/api/handlers/surfaces';
import { createApiKey } from '@/lib/auth/api-keys';
import { toolContractJsonSchema } from '@/lib/contracts/contract-schema';
import { db } from '@/lib/db';
import { getDocumentVersionOrThrow } from '@/lib/documents/get-document-version-or-throw';
import { parseDocument } from '@/lib/lint';
import { call } from '@/lib/testing/api-client';
import { createTestTenant } from '@/lib/testing/fixtures';

// The studio saves the text the author wrote beside the canonical document: reopening shows it
// exactly (their notation, key order, comments), while the hash, publishing and the runtime use
// the canonical document as before.

let t: Awaited<ReturnType<typeof createTestTenant>>;
let other: Awaited<ReturnType<typeof createTestTenant>>;
let key: string;
let otherKey: string;

beforeAll(async () => {
  t = await createTestTenant();
  other = await createTestTenant();
  key = (await createApiKey({ tenantId: t.tenant.id, name: 'studio', scopes: ['author'] })).key;
  otherKey = (await createApiKey({ tenantId: other.tenant.id, name: 'studio', scopes: ['author'] })).key;
});

/** A contract in YAML as an author writes it: `required` before `properties`, a comment, `id` after `input`. */
const YAML_CONTRACT = `# Looks up one order; the support agent's first tool.
version: 1.0.0
description: Looks up an order by id.
owner: team-orders
input:
  type: object
  required: [order_id]   # the only argument
  properties:
    order_id: { type: string, maxLength: 64 }
id: orders.lookup
annotations: { kind: query, side_effect_level: read_only, idempotent: true }
`;

const valueOf = (text: string, format: 'json' | 'yaml') => parseDocument(text, format).value as Record<string, unknown>;
const draft = (text: string, format: 'json' | 'yaml', document = valueOf(text, format)) => ({
  key,
  headers: { 'content-type': DRAFT_MEDIA_TYPE },
  body: { document, source: { format, text } },
});

describe('the text an author saves in the studio', () => {
  it('a YAML contract with required before properties reopens as exactly the text saved; the hash is the canonical one', async () => {
    const saved = await call(saveContract, draft(YAML_CONTRACT, 'yaml'));
    expect(saved.status).toBe(201);
    const stored = await getDocumentVersionOrThrow({ tenantId: t.tenant.id, kind: 'contract', id: 'orders.lookup', version: '1.0.0' });
    expect(stored.source).toEqual({ format: 'yaml', text: YAML_CONTRACT });
    expect(editorText(stored, toolContractJsonSchema())).toEqual({ text: YAML_CONTRACT, format: 'yaml' });

    // The same document sent as plain JSON by another tenant: the same content hash.
    const plain = await call(saveContract, { key: otherKey, body: valueOf(YAML_CONTRACT, 'yaml') });
    expect(plain.status).toBe(201);
    expect(plain.body.contentHash).toBe(saved.body.contentHash);
    const row = await db().contractVersion.findFirstOrThrow({ where: { tenantId: t.tenant.id, version: '1.0.0' } });
    expect(JSON.parse(row.document)).toMatchObject({ id: 'orders.lookup', input: { required: ['order_id'] } });
    expect(row.document.indexOf('"properties"')).toBeLessThan(row.document.indexOf('"required"'));
  });

  it('publishing keeps it; a plain API save of a later draft shows the canonical document', async () => {
    const published = await call(publishContract, {
      key,
      body: {},
      params: { id: 'orders.lookup', version: '1.0.0' },
      path: '/api/v1/contracts/orders.lookup/versions/1.0.0/publish',
    });
    expect(published.status).toBe(200);
    const frozen = await getDocumentVersionOrThrow({ tenantId: t.tenant.id, kind: 'contract', id: 'orders.lookup', version: '1.0.0' });
    expect(frozen.status).toBe('published');
    expect(frozen.source?.text).toBe(YAML_CONTRACT);

    const next = { ...valueOf(YAML_CONTRACT, 'yaml'), version: '1.1.0' };
    await call(saveContract, draft(JSON.stringify(next, null, 4), 'json', next));
    expect((await call(saveContract, { key, body: next })).status).toBe(200);
    const replaced = await getDocumentVersionOrThrow({ tenantId: t.tenant.id, kind: 'contract', id: 'orders.lookup', version: '1.1.0' });
    expect(replaced.source).toBeNull();
    const reopened = editorText(replaced, toolContractJsonSchema());
    expect(reopened.format).toBe('json');
    // Without a source, the format's order: id and version first.
    expect(reopened.text.indexOf('"id"')).toBeLessThan(reopened.text.indexOf('"input"'));
  });

  it('JSON as the author indented and ordered it; a surface whose prompt is edited beside the text', async () => {
    const policyText = '{\n    "version": "0.1.0",\n    "id": "support",\n    "capability": { "tools": ["orders.*"] }\n}\n';
    expect((await call(savePolicy, draft(policyText, 'json'))).status).toBe(201);
    const policy = await getDocumentVersionOrThrow({ tenantId: t.tenant.id, kind: 'policy', id: 'support', version: '0.1.0' });
    expect(policy.source).toEqual({ format: 'json', text: policyText });
    // The API still answers the canonical document, and nothing else.
    const answered = await call(getPolicyVersion, { key, params: { id: 'support', version: '0.1.0' } });
    expect(answered.body.document).toEqual({ id: 'support', version: '0.1.0', capability: { tools: ['orders.*'] } });
    expect(answered.body).not.toHaveProperty('source');

    const surfaceText = 'version: 0.1.0\nid: agent\ntools: []\n';
    const document = { ...valueOf(surfaceText, 'yaml'), system: 'You help customers.' };
    expect((await call(saveSurface, draft(surfaceText, 'yaml', document))).status).toBe(201);
    const surface = await getDocumentVersionOrThrow({ tenantId: t.tenant.id, kind: 'surface', id: 'agent', version: '0.1.0' });
    expect(surface.source?.text).toBe(surfaceText);
    expect(surface.document).toMatchObject({ system: 'You help customers.' });
  });

  it('a source that does not read as the document, or a malformed body, is refused and nothing is stored', async () => {
    const other = { ...valueOf(YAML_CONTRACT, 'yaml'), version: '2.0.0' };
    const mismatch = await call(saveContract, draft(YAML_CONTRACT.replace('maxLength: 64', 'maxLength: 65'), 'yaml', other));
    expect(mismatch.status).toBe(400);
    expect(mismatch.body.error.code).toBe('bad_request');
    expect(await db().contractVersion.count({ where: { tenantId: t.tenant.id, version: '2.0.0' } })).toBe(0);

    const unparsable = await call(saveContract, draft('id: [', 'yaml', other));
    expect(unparsable.status).toBe(400);
    const badFormat = await call(saveContract, {
      ...draft(YAML_CONTRACT, 'yaml'),
      body: { document: other, source: { format: 'toml', text: '' } },
    });
    expect(badFormat.status).toBe(400);
    expect(badFormat.body.error.message).toContain('source.format');
    const extra = await call(saveContract, {
      ...draft(YAML_CONTRACT, 'yaml'),
      body: { document: other, source: { format: 'yaml', text: YAML_CONTRACT }, x: 1 },
    });
    expect(extra.status).toBe(400);
    // A surface source may leave out only its prompt, not other members.
    const surfaceText = 'version: 0.2.0\nid: agent\n';
    const withTools = { ...valueOf(surfaceText, 'yaml'), tools: [], system: 'x' };
    expect((await call(saveSurface, draft(surfaceText, 'yaml', withTools))).status).toBe(400);
  });

  it('a source with a lone surrogate is refused: stored as UTF-8 it came back as U+FFFD, another text than the document', async () => {
    const text = YAML_CONTRACT.replace('version: 1.0.0', 'version: 4.0.0').replace(
      'description: Looks up an order by id.',
      'description: a\uD800',
    );
    const lone = await call(saveContract, draft(text, 'yaml'));
    expect(lone.status).toBe(400);
    expect(lone.body.error).toMatchObject({ code: 'bad_request', message: expect.stringContaining('lone surrogate') });
    expect(await db().contractVersion.count({ where: { tenantId: t.tenant.id, version: '4.0.0' } })).toBe(0);
  });

  it('a source with a NUL (U+0000), which YAML reads in a comment, is refused alike on both databases', async () => {
    // PostgreSQL's text cannot hold it (a bare "out of the range the database can hold"), SQLite kept it.
    const text = YAML_CONTRACT.replace('version: 1.0.0', 'version: 3.0.0').replace('# the only argument', '# the only\u0000argument');
    const nul = await call(saveContract, draft(text, 'yaml'));
    expect(nul.status).toBe(400);
    expect(nul.body.error).toMatchObject({ code: 'bad_request', message: expect.stringContaining('NUL') });
    expect(await db().contractVersion.count({ where: { tenantId: t.tenant.id, version: '3.0.0' } })).toBe(0);
  });
});
