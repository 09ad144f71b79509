import { beforeAll, describe, expect, it } from 'vitest';
import { lookupOrderContract } from '@/lib/contracts/examples';
import { AppError } from '@/lib/errors';
import { createTestTenant } from '@/lib/testing/fixtures';
import type { DocumentKind } from '@/lib/lint';
import { db } from '@/lib/db';
import { sha256Hex } from '@/lib/contracts/canonical-json';
import { deprecateDocument } from './deprecate-document';
import { documentKind } from './kinds';
import { getDocumentVersionOrThrow } from './get-document-version-or-throw';
import { listDocuments, listServedDocuments } from './list-documents';
import { publishDocumentVersion } from './publish-document-version';
import { saveDocumentDraft } from './save-document-draft';

// The core's kind-specific branches that the API tests (lib/api/tests/contracts, studio-documents,
// policy-decisions) do not reach: the shadow rules on the contract tables, promotion, and what
// each kind refuses. Called directly, as the seed and the CLI do.

let tenantId: string;

beforeAll(async () => {
  tenantId = (await createTestTenant()).tenant.id;
});

const contract = (version: string) => ({ ...lookupOrderContract, id: 'orders.shadowed', version });
const policy = (version: string) => ({ id: 'kinds-policy', version, description: `policy ${version}`, rules: [] });
const surface = (version: string) => ({
  id: 'kinds-surface',
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

async function saveAndPublish(kind: DocumentKind, document: { id: string; version: string }, mode: 'enforce' | 'shadow' = 'enforce') {
  await saveDocumentDraft({ tenantId, kind, document });
  return publishDocumentVersion({ tenantId, kind, id: document.id, version: document.version, mode });
}

const statuses = async (kind: DocumentKind, id: string) =>
  Object.fromEntries(
    ((await listDocuments({ tenantId, kind })).find((d) => d.id === id)?.versions ?? []).map((v) => [v.version, v.status]),
  );

const refusal = (promise: Promise<unknown>) =>
  promise.then(
    () => null,
    (error: unknown) =>
      error instanceof AppError ? { code: error.code, message: error.message, details: error.details } : Promise.reject(error),
  );

describe('one core for every document kind', () => {
  it.each([
    ['contract', contract('1.0.0')],
    ['policy', policy('1.0.0')],
    ['surface', surface('1.0.0')],
  ] as const)('saves, publishes and serves a %s under its own id', async (kind, document) => {
    expect(await saveDocumentDraft({ tenantId, kind, document })).toMatchObject({
      id: document.id,
      version: '1.0.0',
      status: 'draft',
      created: true,
    });
    expect(await getDocumentVersionOrThrow({ tenantId, kind, id: document.id, version: '1.0.0' })).toMatchObject({
      id: document.id,
      status: 'draft',
      served: false,
    });
    expect(await publishDocumentVersion({ tenantId, kind, id: document.id, version: '1.0.0' })).toMatchObject({
      id: document.id,
      status: 'published',
    });
    expect(await getDocumentVersionOrThrow({ tenantId, kind, id: document.id, version: '1.0.0' })).toMatchObject({
      status: 'published',
      served: true,
      publishedBy: null,
    });
    expect((await listDocuments({ tenantId, kind })).find((d) => d.id === document.id)).toMatchObject({
      latestVersion: '1.0.0',
      description: 'description' in document ? document.description : null,
    });
    expect((await listServedDocuments({ tenantId, kind })).map((d) => (d as { id: string }).id)).toContain(document.id);
  });

  it('keeps one shadow version of a contract: a newer shadow retires the older, and promoting serves it', async () => {
    await saveAndPublish('contract', contract('1.1.0'), 'shadow');
    await saveAndPublish('contract', contract('1.2.0'), 'shadow');
    expect(await statuses('contract', 'orders.shadowed')).toEqual({ '1.0.0': 'published', '1.1.0': 'retired', '1.2.0': 'shadow' });

    const promoted = await publishDocumentVersion({ tenantId, kind: 'contract', id: 'orders.shadowed', version: '1.2.0', mode: 'enforce' });
    expect(promoted.status).toBe('published');
    expect((await listDocuments({ tenantId, kind: 'contract' })).find((d) => d.id === 'orders.shadowed')?.latestVersion).toBe('1.2.0');
    expect(await refusal(publishDocumentVersion({ tenantId, kind: 'contract', id: 'orders.shadowed', version: '1.1.0' }))).toMatchObject({
      code: 'conflict',
      details: { status: 'retired' },
    });
    // A shadow version is published once: only promotion may publish it again.
    await saveAndPublish('contract', contract('1.3.0'), 'shadow');
    expect(
      await refusal(publishDocumentVersion({ tenantId, kind: 'contract', id: 'orders.shadowed', version: '1.3.0', mode: 'shadow' })),
    ).toMatchObject({ code: 'conflict' });
  });

  it('publishing for real retires the shadow versions not newer than it and keeps a newer one', async () => {
    await saveAndPublish('policy', policy('1.1.0'), 'shadow');
    await saveAndPublish('policy', policy('1.2.0'));
    expect(await statuses('policy', 'kinds-policy')).toMatchObject({ '1.1.0': 'retired', '1.2.0': 'published' });
    await saveAndPublish('policy', policy('1.4.0'), 'shadow');
    await saveAndPublish('policy', policy('1.3.0'));
    expect(await statuses('policy', 'kinds-policy')).toMatchObject({ '1.3.0': 'published', '1.4.0': 'shadow' });
    expect((await listDocuments({ tenantId, kind: 'policy' })).find((d) => d.id === 'kinds-policy')).toMatchObject({
      latestVersion: '1.3.0',
      description: 'policy 1.3.0',
    });
  });

  it("names a document's id the way its API does in a save conflict: `tool` for contracts, `id` for the others", async () => {
    expect(await refusal(saveDocumentDraft({ tenantId, kind: 'contract', document: contract('1.0.0') }))).toMatchObject({
      code: 'conflict',
      message: 'orders.shadowed@1.0.0 is already published and cannot change; save it as a new version.',
      details: { tool: 'orders.shadowed', version: '1.0.0', status: 'published' },
    });
    expect(await refusal(saveDocumentDraft({ tenantId, kind: 'policy', document: policy('1.0.0') }))).toMatchObject({
      code: 'conflict',
      message: 'policy kinds-policy@1.0.0 is already published and cannot change; save it as a new version.',
      details: { id: 'kinds-policy', version: '1.0.0', status: 'published' },
    });
  });

  it('checks a draft the kind’s way: a contract must be a valid contract, a policy or surface only needs its key', async () => {
    expect(
      await refusal(saveDocumentDraft({ tenantId, kind: 'contract', document: { id: 'orders.half', version: '0.1.0' } })),
    ).toMatchObject({ code: 'contract_invalid' });
    expect(
      await saveDocumentDraft({ tenantId, kind: 'policy', document: { id: 'half-written', version: '0.1.0', rules: 'todo' } }),
    ).toMatchObject({ status: 'draft' });
    expect(
      await refusal(saveDocumentDraft({ tenantId, kind: 'surface', document: { id: 'Half Written', version: '0.1.0' } })),
    ).toMatchObject({ code: 'bad_request' });
  });

  it('refuses shadow for surfaces before looking anything up, and deprecation for every kind but contracts', async () => {
    expect(
      await refusal(publishDocumentVersion({ tenantId, kind: 'surface', id: 'kinds-surface', version: '9.0.0', mode: 'shadow' })),
    ).toMatchObject({ code: 'bad_request' });
    expect(await refusal(deprecateDocument({ tenantId, kind: 'policy', id: 'kinds-policy' }))).toMatchObject({ code: 'bad_request' });
    expect(await refusal(deprecateDocument({ tenantId, kind: 'surface', id: 'kinds-surface' }))).toMatchObject({ code: 'bad_request' });
  });

  it('deprecates a contract version or the whole contract, never a draft', async () => {
    await saveDocumentDraft({ tenantId, kind: 'contract', document: contract('2.0.0') });
    expect(await refusal(deprecateDocument({ tenantId, kind: 'contract', id: 'orders.shadowed', version: '2.0.0' }))).toMatchObject({
      code: 'conflict',
    });
    const version = await deprecateDocument({ tenantId, kind: 'contract', id: 'orders.shadowed', version: '1.2.0' });
    expect(version).toEqual({ id: 'orders.shadowed', version: '1.2.0', deprecatedAt: expect.any(Date) });
    expect(await getDocumentVersionOrThrow({ tenantId, kind: 'contract', id: 'orders.shadowed', version: '1.2.0' })).toMatchObject({
      status: 'deprecated',
      deprecatedAt: version.deprecatedAt,
    });
    const whole = await deprecateDocument({ tenantId, kind: 'contract', id: 'orders.shadowed' });
    expect(whole).toEqual({ id: 'orders.shadowed', deprecatedAt: expect.any(Date) });
    expect(await deprecateDocument({ tenantId, kind: 'contract', id: 'orders.shadowed' })).toEqual(whole);
    expect((await listDocuments({ tenantId, kind: 'contract' })).find((d) => d.id === 'orders.shadowed')?.deprecatedAt).toEqual(
      whole.deprecatedAt,
    );
  });

  it.each([
    ['contract', (version: string) => ({ ...lookupOrderContract, id: 'orders.raced', version })],
    ['policy', (version: string) => ({ id: 'raced-policy', version, description: `policy ${version}`, rules: [] })],
  ] as const)('two versions of a %s published at once: the served version never goes back to the older one', async (kind, make) => {
    // Both publishes checked their version against the served version they read before either
    // committed, so whichever committed last was served: 1.1.0 over 1.2.0 about half the time.
    const id = make('1.0.0').id;
    await saveAndPublish(kind, make('1.0.0'));
    for (let round = 1; round <= 6; round++) {
      const older = `${round}.1.0`;
      const newer = `${round}.2.0`;
      await saveDocumentDraft({ tenantId, kind, document: make(older) });
      await saveDocumentDraft({ tenantId, kind, document: make(newer) });
      const outcomes = await Promise.all(
        (round % 2 ? [older, newer] : [newer, older]).map((version) =>
          refusal(publishDocumentVersion({ tenantId, kind, id, version })).then((refused) => ({ version, refused })),
        ),
      );
      const servedNow = async () => (await listDocuments({ tenantId, kind })).find((d) => d.id === id)?.latestVersion;
      // What was published is served, never the older of two published ones; a publish that
      // lost the race was refused as a conflict and left its draft as it was.
      const published = outcomes.filter((outcome) => !outcome.refused).map((outcome) => outcome.version);
      expect(published.length, JSON.stringify(outcomes)).toBeGreaterThan(0);
      expect(await servedNow(), `round ${round}: ${JSON.stringify(outcomes)}`).toBe(published.includes(newer) ? newer : older);
      for (const outcome of outcomes.filter((each) => each.refused)) {
        expect(outcome.refused?.code).toBe('conflict');
        expect((await statuses(kind, id))[outcome.version]).toBe('draft');
      }
      // Publishing the newer again (if it lost) serves it; the older, published after it, is refused.
      if (!published.includes(newer)) await publishDocumentVersion({ tenantId, kind, id, version: newer });
      expect(await servedNow()).toBe(newer);
      if (!published.includes(older))
        expect(await refusal(publishDocumentVersion({ tenantId, kind, id, version: older }))).toMatchObject({
          code: 'conflict',
          details: { latest_version: newer },
        });
    }
  });

  it.each([
    ['contract', (version: string, note: string) => ({ ...lookupOrderContract, id: 'orders.resaved', version, description: note })],
    ['policy', (version: string, note: string) => ({ id: 'resaved-policy', version, description: note, rules: [] })],
  ] as const)(
    'a %s draft saved again while it is published: what is published is what was checked, and never changes after',
    async (kind, make) => {
      // The publish read the draft, checked it, then froze the row by its status alone: a save in
      // between left the new text frozen under the old text's hash, never compiled or linted.
      const id = make('1.0.0', '').id;
      const spec = documentKind(kind);
      const seen = new Set<string>();
      for (let round = 1; round <= 6; round++) {
        const version = `${round}.0.0`;
        await saveDocumentDraft({ tenantId, kind, document: make(version, 'as checked') });
        const [published, saved] = await Promise.all([
          refusal(publishDocumentVersion({ tenantId, kind, id, version })),
          refusal(saveDocumentDraft({ tenantId, kind, document: make(version, 'saved meanwhile') })),
        ]);
        const row = await spec.store.findVersionOf(db(), { tenantId, kind, id }, version);
        if (!row) throw new Error('the version is gone');
        const outcome = `round ${round}: publish ${JSON.stringify(published)}, save ${JSON.stringify(saved)}`;
        seen.add(`publish ${published?.code ?? 'ok'}, save ${saved?.code ?? 'ok'}`);
        if (published) {
          // Refused because the draft changed under it: still a draft, with the text saved.
          expect(published.code, outcome).toBe('conflict');
          expect(row.status).toBe('draft');
          expect(JSON.parse(row.document).description).toBe('saved meanwhile');
          expect(saved).toBeNull();
          await publishDocumentVersion({ tenantId, kind, id, version });
          continue;
        }
        expect(row.status, outcome).toBe('published');
        const hash = spec.compile(JSON.parse(row.document), version).contentHash ?? sha256Hex(row.document);
        expect(row.contentHash, outcome).toBe(hash);
        // A save that came after the freeze is refused: a published version never changes.
        if (saved) expect(saved).toMatchObject({ code: 'conflict', details: { status: 'published' } });
        else expect(JSON.parse(row.document).description, outcome).toBe('saved meanwhile');
      }
      // The race was run: some publish or save met the other (not every round ran one after the other).
      expect(
        [...seen].some((each) => each.includes('conflict')),
        [...seen].join('; '),
      ).toBe(true);
    },
  );

  it.each([
    ['contract', (n: number) => ({ ...lookupOrderContract, id: 'orders.firstsave', version: '1.0.0', description: `save ${n}` })],
    ['policy', (n: number) => ({ id: 'first-save-policy', version: '1.0.0', description: `save ${n}`, rules: [] })],
  ] as const)('three first saves of a new %s at once all save: one draft, holding one of their texts', async (kind, make) => {
    // Each found no document and inserted one; the unique key refused all but one (a 500 on
    // PostgreSQL). The refused ones save again over the draft that was made.
    const saves = await Promise.all([1, 2, 3].map((n) => saveDocumentDraft({ tenantId, kind, document: make(n) })));
    expect(saves.map((save) => save.version)).toEqual(['1.0.0', '1.0.0', '1.0.0']);
    expect(saves.filter((save) => save.created).length).toBeGreaterThanOrEqual(1);
    const row = await documentKind(kind).store.findVersionOf(db(), { tenantId, kind, id: make(1).id }, '1.0.0');
    expect(row?.status).toBe('draft');
    expect(['save 1', 'save 2', 'save 3']).toContain(JSON.parse(row?.document ?? '{}').description);
  });

  it('shadow versions published at once: one shadow remains, the others retired', async () => {
    // Each listed the shadows to retire before the others committed theirs, so on PostgreSQL all
    // of them stayed shadow, where a document has at most one.
    const make = (version: string) => ({ ...lookupOrderContract, id: 'orders.shadowraced', version });
    await saveAndPublish('contract', make('1.0.0'));
    for (let round = 1; round <= 4; round++) {
      const versions = [`1.${round}.1`, `1.${round}.2`, `1.${round}.3`];
      for (const version of versions) await saveDocumentDraft({ tenantId, kind: 'contract', document: make(version) });
      const outcomes = await Promise.all(
        versions.map((version) =>
          refusal(publishDocumentVersion({ tenantId, kind: 'contract', id: 'orders.shadowraced', version, mode: 'shadow' })),
        ),
      );
      const now = await statuses('contract', 'orders.shadowraced');
      const shadows = Object.entries(now).filter(([, status]) => status === 'shadow');
      expect(shadows.length, `round ${round}: ${JSON.stringify({ outcomes, now })}`).toBe(1);
      for (const outcome of outcomes) if (outcome) expect(outcome.code).toBe('conflict');
    }
  });
});
