import { z } from 'zod';
import { defineRoute, type Caller } from '../define-route';
import { plainObject } from '../../json';
import { KIND_LABELS, type StudioDocumentKind } from '../../documents/document-kinds';
import { policyJsonSchema } from '../../policies/policy-schema';
import { surfaceJsonSchema } from '../../surfaces/surface-schema';
import { getDocumentVersion, listDocuments, publishDocumentVersion, saveDocumentDraft } from '../../documents/studio-documents';
import { PUBLISH_MODES } from '../../documents/publish-mode';

const actor = (caller: Caller) => (caller.kind === 'session' ? `user:${caller.userId}` : `api_key:${caller.apiKeyId}`);

/**
 * The routes of one studio document kind, mounted at /api/v1/policies and /api/v1/surfaces with
 * the same shape as /api/v1/contracts: list, save draft, read a version, publish.
 */
function studioDocumentHandlers(kind: StudioDocumentKind) {
  const { one, many } = KIND_LABELS[kind];
  return {
    list: defineRoute({
      auth: { apiKey: 'author', session: 'read' },
      handler: async ({ caller }) => ({ body: { [many]: await listDocuments({ tenantId: caller.tenantId, kind }) } }),
    }),
    saveDraft: defineRoute({
      auth: { apiKey: 'author', session: 'edit_contracts' },
      body: plainObject(`A ${one} document; \`id\` and \`version\` key the draft.`),
      handler: async ({ caller, body }) => {
        const draft = await saveDocumentDraft({ tenantId: caller.tenantId, kind, document: body, createdById: actor(caller) });
        return { status: draft.created ? 201 : 200, body: draft };
      },
    }),
    getVersion: defineRoute({
      auth: { apiKey: ['validate', 'author'], session: 'read' },
      handler: async ({ caller, params }) => ({
        body: await getDocumentVersion({ tenantId: caller.tenantId, kind, id: params.id ?? '', version: params.version ?? '' }),
      }),
    }),
    publish: defineRoute({
      auth: { apiKey: 'author', session: 'edit_contracts' },
      body: z
    .object({
      change_note: z.string().max(2000).optional(),
      mode: z.enum(PUBLISH_MODES).default('enforce').describe('`shadow`: evaluate beside the served version and record, deciding nothing.'),
    })
    .strict(),
      handler: async ({ caller, params, body }) => ({
        body: await publishDocumentVersion({ tenantId: caller.tenantId, kind, id: params.id ?? '', version: params.version ?? '', changeNote: body.change_note, publishedBy: actor(caller), mode: body.mode }),
      }),
    }),
  };
}

export const {
  list: listPoliciesHandler,
  saveDraft: savePolicyDraftHandler,
  getVersion: getPolicyVersionHandler,
  publish: publishPolicyVersionHandler,
} = studioDocumentHandlers('policy');
export const {
  list: listSurfacesHandler,
  saveDraft: saveSurfaceDraftHandler,
  getVersion: getSurfaceVersionHandler,
  publish: publishSurfaceVersionHandler,
} = studioDocumentHandlers('surface');

/** GET /api/v1/schemas/policy.json — the JSON Schema of policy documents (public, drives editors). */
export const policySchemaHandler = defineRoute({
  auth: 'none',
  handler: async () => ({ body: policyJsonSchema(), headers: { 'cache-control': 'public, max-age=300' } }),
});

/** GET /api/v1/schemas/surface.json — the JSON Schema of tool surface documents (public). */
export const surfaceSchemaHandler = defineRoute({
  auth: 'none',
  handler: async () => ({ body: surfaceJsonSchema(), headers: { 'cache-control': 'public, max-age=300' } }),
});
