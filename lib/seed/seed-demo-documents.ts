import { EXAMPLE_CONTRACTS } from '../contracts/examples';
import { listServedDocuments } from '../documents/list-documents';
import { publishDocumentVersion } from '../documents/publish-document-version';
import { saveDocumentDraft } from '../documents/save-document-draft';
import type { DocumentKind } from '../lint';
import { DEMO_CONTRACTS, DEMO_POLICIES, DEMO_SURFACE } from './demo-documents';
import { actorRef } from '../members/member-actor';
import { atTime } from './seed-clock';

const MINUTE = 60_000;

/**
 * Saves and publishes the demo's documents as their author would in the studio (the same
 * services, so each passes the linter on the way): the example contracts and the demo's own,
 * then its policies, then the agent's surface, from `atMs` on, a few minutes apart. A document
 * whose version is served already is left as it is.
 */
export async function publishDemoDocuments(options: { tenantId: string; authorUserId: string; atMs: number }): Promise<number> {
  const { tenantId } = options;
  const documents: [DocumentKind, { id: string; version: string }][] = [
    ...[...EXAMPLE_CONTRACTS, ...DEMO_CONTRACTS].map((c): [DocumentKind, { id: string; version: string }] => ['contract', c]),
    ...DEMO_POLICIES.map((p): [DocumentKind, { id: string; version: string }] => ['policy', p as { id: string; version: string }]),
    ['surface', DEMO_SURFACE as { id: string; version: string }],
  ];
  const served = new Set<string>();
  for (const kind of ['contract', 'policy', 'surface'] as const) {
    for (const doc of (await listServedDocuments({ tenantId, kind })) as { id: string; version: string }[])
      served.add(`${kind} ${doc.id}@${doc.version}`);
  }
  const author = actorRef({ kind: 'user', userId: options.authorUserId });
  let published = 0;
  for (const [i, [kind, document]] of documents.entries()) {
    if (served.has(`${kind} ${document.id}@${document.version}`)) continue;
    await atTime(options.atMs + i * 7 * MINUTE, async () => {
      await saveDocumentDraft({ tenantId, kind, document, createdById: author });
      await publishDocumentVersion({
        tenantId,
        kind,
        id: document.id,
        version: document.version,
        changeNote: 'First version, from the demo',
        publishedBy: author,
      });
    });
    published++;
  }
  return published;
}
