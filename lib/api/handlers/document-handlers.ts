import { z } from 'zod';
import { defineRoute, type Caller } from '../define-route';
import { NO_QUERY } from '../no-query';
import { documentIdParam, versionParam } from '../path-params';
import { isoDateTime } from '../response-schemas';
import { plainObject } from '../../json';
import type { StudioDocumentKind } from '../../documents/document-kinds';
import { documentKind } from '../../documents/kinds';
import { listDocuments, type DocumentSummary } from '../../documents/list-documents';
import { saveDocumentDraft } from '../../documents/save-document-draft';
import { getDocumentVersionOrThrow, type DocumentVersion } from '../../documents/get-document-version-or-throw';
import { publishDocumentVersion } from '../../documents/publish-document-version';
import { PUBLISH_MODES } from '../../documents/publish-mode';
import { draftBodyDescription, PublishChangeNote, PublishExpectedContentHash, readDraftBody } from './draft-body';

const actor = (caller: Caller) => (caller.kind === 'session' ? `user:${caller.userId}` : `api_key:${caller.apiKeyId}`);

// The fields these APIs have always answered: policies and surfaces have no owner and cannot be deprecated.
const summaryBody = ({ id, description, latestVersion, versions }: DocumentSummary) => ({
  id,
  description,
  latestVersion,
  versions: versions.map(({ version, status, contentHash, changeNote, createdAt, publishedAt }) => ({
    version,
    status,
    contentHash,
    changeNote,
    createdAt,
    publishedAt,
  })),
});
const versionBody = ({
  id,
  version,
  status,
  served,
  contentHash,
  changeNote,
  createdAt,
  publishedAt,
  publishedBy,
  document,
}: DocumentVersion) => ({
  id,
  version,
  status,
  served,
  contentHash,
  changeNote,
  createdAt,
  publishedAt,
  publishedBy,
  document,
});

const VersionSummarySchema = z
  .object({
    version: z.string(),
    status: z.string(),
    contentHash: z.string(),
    changeNote: z.string().nullable(),
    createdAt: isoDateTime,
    publishedAt: isoDateTime.nullable(),
  })
  .strict();
const SummarySchema = z
  .object({
    id: z.string(),
    description: z.string().nullable(),
    latestVersion: z.string().nullable(),
    versions: z.array(VersionSummarySchema),
  })
  .strict();
const VersionSchema = z
  .object({
    id: z.string(),
    version: z.string(),
    status: z.string(),
    served: z.boolean(),
    contentHash: z.string(),
    changeNote: z.string().nullable(),
    createdAt: isoDateTime,
    publishedAt: isoDateTime.nullable(),
    publishedBy: z.string().nullable(),
    document: z.looseObject({}).describe('The document.'),
  })
  .strict();
const SavedDraftSchema = z
  .object({ id: z.string(), version: z.string(), status: z.string(), contentHash: z.string(), created: z.boolean() })
  .strict();
const PublishedSchema = z
  .object({
    id: z.string(),
    version: z.string(),
    status: z.enum(['published', 'shadow']),
    contentHash: z.string(),
    publishedAt: isoDateTime,
  })
  .strict();

/**
 * The routes of one studio document kind, mounted at /api/v1/policies and /api/v1/surfaces with
 * the same shape as /api/v1/contracts: list, save draft, read a version, publish.
 */
export function studioDocumentHandlers(kind: StudioDocumentKind) {
  const { one, many, editPermission } = documentKind(kind);
  const params = z.object({ id: documentIdParam(one), version: versionParam(one) });
  return {
    list: defineRoute({
      auth: { apiKey: 'author', session: 'read' },
      query: NO_QUERY,
      response: z.object({ [many]: z.array(SummarySchema) }).strict(),
      handler: async ({ caller }) => ({ body: { [many]: (await listDocuments({ tenantId: caller.tenantId, kind })).map(summaryBody) } }),
    }),
    saveDraft: defineRoute({
      auth: { apiKey: 'author', session: editPermission },
      body: plainObject(draftBodyDescription(`A ${one} document; \`id\` and \`version\` key the draft.`)),
      response: SavedDraftSchema,
      handler: async ({ call, caller, body }) => {
        const draft = await saveDocumentDraft({
          tenantId: caller.tenantId,
          kind,
          ...readDraftBody(call, body),
          createdById: actor(caller),
        });
        return { status: draft.created ? 201 : 200, body: draft };
      },
    }),
    getVersion: defineRoute({
      auth: { apiKey: ['validate', 'author'], session: 'read' },
      query: NO_QUERY,
      params,
      response: VersionSchema,
      handler: async ({ caller, params }) => ({
        body: versionBody(await getDocumentVersionOrThrow({ tenantId: caller.tenantId, kind, id: params.id, version: params.version })),
      }),
    }),
    publish: defineRoute({
      auth: { apiKey: 'author', session: editPermission },
      body: z
        .object({
          change_note: PublishChangeNote,
          mode: z
            .enum(PUBLISH_MODES)
            .default('enforce')
            .describe('`shadow`: evaluate beside the served version and record, deciding nothing.'),
          expected_content_hash: PublishExpectedContentHash,
        })
        .strict(),
      params,
      response: PublishedSchema,
      handler: async ({ caller, params, body }) => ({
        body: await publishDocumentVersion({
          tenantId: caller.tenantId,
          kind,
          id: params.id,
          version: params.version,
          changeNote: body.change_note,
          publishedBy: actor(caller),
          mode: body.mode,
          expectedContentHash: body.expected_content_hash,
        }),
      }),
    }),
  };
}
