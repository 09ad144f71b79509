import { z } from 'zod';
import { defineRoute, type Caller } from '../define-route';
import { NO_QUERY } from '../no-query';
import { contractIdParam, versionParam } from '../path-params';
import { isoDateTime } from '../response-schemas';
import { plainObject } from '../../json';
import { listDocuments, type DocumentSummary } from '../../documents/list-documents';
import { saveDocumentDraft, type SavedDraft } from '../../documents/save-document-draft';
import { publishDocumentVersion, type PublishedVersion } from '../../documents/publish-document-version';
import { deprecateDocument } from '../../documents/deprecate-document';
import { getDocumentVersionOrThrow, type DocumentVersion } from '../../documents/get-document-version-or-throw';
import { previewContractImpact } from '../../contracts/impact-preview';
import { EXPORT_FORMATS, exportToolDefinition, importToolDefinitions, MAX_IMPORT_CHARS } from '../../contracts/formats';
import { IMPORT_PROBLEM_CODES } from '../../contracts/formats/draft-contract';
import { AppError } from '../../errors';
import { PUBLISH_MODES } from '../../documents/publish-mode';
import { draftBodyDescription, PublishChangeNote, PublishExpectedContentHash, readDraftBody } from './draft-body';

const ContractParams = z.object({ id: contractIdParam() });
const VersionParams = z.object({ id: contractIdParam(), version: versionParam('contract') });

const VersionSummarySchema = z
  .object({
    version: z.string(),
    status: z.string(),
    contentHash: z.string(),
    changeNote: z.string().nullable(),
    createdAt: isoDateTime,
    publishedAt: isoDateTime.nullable(),
    deprecatedAt: isoDateTime.nullable(),
  })
  .strict();
const ContractSummarySchema = z
  .object({
    tool: z.string(),
    description: z.string().nullable(),
    owner: z.string().nullable(),
    deprecatedAt: isoDateTime.nullable(),
    latestVersion: z.string().nullable(),
    versions: z.array(VersionSummarySchema),
  })
  .strict();
const ContractVersionSchema = z
  .object({
    tool: z.string(),
    version: z.string(),
    status: z.string(),
    contentHash: z.string(),
    changeNote: z.string().nullable(),
    createdAt: isoDateTime,
    publishedAt: isoDateTime.nullable(),
    deprecatedAt: isoDateTime.nullable(),
    document: z.looseObject({}).describe('The contract document.'),
  })
  .strict();
const SavedDraftSchema = z
  .object({ tool: z.string(), version: z.string(), status: z.string(), contentHash: z.string(), created: z.boolean() })
  .strict();
const ImpactPreviewSchema = z
  .object({
    tool: z.string(),
    replayed: z.number().int(),
    notReplayable: z.number().int(),
    withoutArguments: z.number().int(),
    withoutContext: z.number().int(),
    changed: z.number().int(),
    newlyRefused: z.number().int(),
    newlyPassing: z.number().int(),
    codes: z.array(z.object({ code: z.string(), added: z.number().int(), removed: z.number().int() }).strict()),
    examples: z.array(
      z
        .object({ evidenceId: z.string(), callId: z.string(), at: isoDateTime, before: z.array(z.string()), after: z.array(z.string()) })
        .strict(),
    ),
  })
  .strict();
const ImportResultSchema = z
  .object({
    contracts: z.array(
      z
        .object({
          source: z.enum(['mcp', 'openai', 'anthropic']),
          name: z.string(),
          document: z.looseObject({}).describe('The draft contract.'),
          notes: z.array(z.object({ path: z.string(), message: z.string() }).strict()),
        })
        .strict(),
    ),
    problems: z.array(
      z
        .object({
          code: z.enum(Object.keys(IMPORT_PROBLEM_CODES) as [keyof typeof IMPORT_PROBLEM_CODES]),
          path: z.string(),
          message: z.string(),
        })
        .strict(),
    ),
    saved: z.array(
      z.union([
        SavedDraftSchema,
        z.object({ tool: z.string(), error: z.object({ code: z.string(), message: z.string() }).strict() }).strict(),
      ]),
    ),
  })
  .strict();

const actor = (caller: Caller) => (caller.kind === 'session' ? `user:${caller.userId}` : `api_key:${caller.apiKeyId}`);

/*
 * A contract's id is the id of the tool it governs. Everywhere inside Toolgate it is called
 * `id`; this API's JSON calls it `tool` (as it always has: agents and the SDK read it), so the
 * answers are mapped here and nowhere else.
 */
const contractSummaryBody = ({ id, description, owner, deprecatedAt, latestVersion, versions }: DocumentSummary) => ({
  tool: id,
  description,
  owner,
  deprecatedAt,
  latestVersion,
  versions,
});
const contractVersionBody = ({
  id,
  version,
  status,
  contentHash,
  changeNote,
  createdAt,
  publishedAt,
  deprecatedAt,
  document,
}: DocumentVersion) => ({
  tool: id,
  version,
  status,
  contentHash,
  changeNote,
  createdAt,
  publishedAt,
  deprecatedAt,
  document,
});
const publishedContractBody = ({ id, ...published }: PublishedVersion) => ({ tool: id, ...published });
/** The answer to a saved contract draft (the SDK's SavedContractDraft). */
export const savedContractDraftBody = ({ id, ...draft }: SavedDraft) => ({ tool: id, ...draft });

/** GET /api/v1/contracts — the tenant's contracts and their versions. */
export const listContractsHandler = defineRoute({
  auth: { apiKey: 'author', session: 'read' },
  query: NO_QUERY,
  response: z.object({ contracts: z.array(ContractSummarySchema) }).strict(),
  handler: async ({ caller }) => ({
    body: { contracts: (await listDocuments({ tenantId: caller.tenantId, kind: 'contract' })).map(contractSummaryBody) },
  }),
});

/** POST /api/v1/contracts — create or replace the draft of the version named in the document. */
export const saveContractDraftHandler = defineRoute({
  auth: { apiKey: 'author', session: 'edit_contracts' },
  body: plainObject(draftBodyDescription('A tool contract document (see /api/v1/schemas/tool-contract.json).')),
  response: SavedDraftSchema,
  handler: async ({ call, caller, body }) => {
    const draft = await saveDocumentDraft({
      tenantId: caller.tenantId,
      kind: 'contract',
      ...readDraftBody(call, body),
      createdById: actor(caller),
    });
    return { status: draft.created ? 201 : 200, body: savedContractDraftBody(draft) };
  },
});

/** GET /api/v1/contracts/{id}/versions/{version} — one version with its document. */
export const getContractVersionHandler = defineRoute({
  auth: { apiKey: ['validate', 'author'], session: 'read' },
  query: NO_QUERY,
  params: VersionParams,
  response: ContractVersionSchema,
  handler: async ({ caller, params }) => ({
    body: contractVersionBody(
      await getDocumentVersionOrThrow({ tenantId: caller.tenantId, kind: 'contract', id: params.id, version: params.version }),
    ),
  }),
});

/** POST /api/v1/contracts/{id}/versions/{version}/publish — freeze a draft and serve it. */
export const publishContractVersionHandler = defineRoute({
  auth: { apiKey: 'author', session: 'edit_contracts' },
  body: z
    .object({
      change_note: PublishChangeNote,
      mode: z.enum(PUBLISH_MODES).default('enforce').describe('`shadow`: evaluate beside the served version and record, deciding nothing.'),
      expected_content_hash: PublishExpectedContentHash,
    })
    .strict(),
  params: VersionParams,
  response: z
    .object({
      tool: z.string(),
      version: z.string(),
      status: z.enum(['published', 'shadow']),
      contentHash: z.string(),
      publishedAt: isoDateTime,
    })
    .strict(),
  handler: async ({ caller, params, body }) => ({
    body: publishedContractBody(
      await publishDocumentVersion({
        tenantId: caller.tenantId,
        kind: 'contract',
        id: params.id,
        version: params.version,
        changeNote: body.change_note,
        publishedBy: actor(caller),
        mode: body.mode,
        expectedContentHash: body.expected_content_hash,
      }),
    ),
  }),
});

/** POST /api/v1/contracts/{id}/deprecate — deprecate one version, or the whole contract. */
export const deprecateContractHandler = defineRoute({
  auth: { apiKey: 'author', session: 'edit_contracts' },
  body: z.object({ version: z.string().min(1).max(64).optional() }).strict(),
  params: ContractParams,
  response: z.object({ tool: z.string(), version: z.string().optional(), deprecatedAt: isoDateTime }).strict(),
  handler: async ({ caller, params, body }) => {
    const { id, ...deprecated } = await deprecateDocument({
      tenantId: caller.tenantId,
      kind: 'contract',
      id: params.id,
      version: body.version,
    });
    return { body: { tool: id, ...deprecated } };
  },
});

/**
 * POST /api/v1/contracts/{id}/impact — replays a draft (the body, not necessarily saved)
 * against the tenant's recent recorded calls of the tool and reports what would change.
 */
export const previewContractImpactHandler = defineRoute({
  auth: { apiKey: 'author', session: 'read' },
  body: plainObject('The draft contract document to replay.'),
  // Any string: the draft's own `id` is checked against it, and a malformed one is the draft's problem (400 or 422), not a 404.
  params: z.object({ id: z.string().describe("The contract's id; the draft's `id` must be the same.") }),
  response: ImpactPreviewSchema,
  handler: async ({ caller, params, body }) => {
    if (body.id !== params.id) throw new AppError('bad_request', `The document's id (${String(body.id)}) is not ${params.id}.`);
    return { body: await previewContractImpact({ tenantId: caller.tenantId, document: body }) };
  },
});

/**
 * POST /api/v1/contracts/import — MCP `tools/list` results, OpenAI or Anthropic tool definitions
 * (pasted text) in; draft contracts out, each with review notes. With `save: true` every draft
 * is also saved; otherwise nothing is stored (the studio shows them first).
 */
export const importContractsHandler = defineRoute({
  auth: { apiKey: 'author', session: 'edit_contracts' },
  body: z
    .object({
      text: z.string().max(MAX_IMPORT_CHARS).describe('The pasted tool definitions (JSON).'),
      namespace: z.string().max(60).optional().describe('Prefix for contract ids, e.g. `mcp` gives `mcp.get_weather`.'),
      owner: z.string().min(1).max(200).optional(),
      save: z.boolean().optional(),
    })
    .strict(),
  response: ImportResultSchema,
  handler: async ({ caller, body }) => {
    const result = importToolDefinitions(body.text, { namespace: body.namespace, owner: body.owner });
    // One draft that cannot be saved (an id already published at 0.1.0, say) does not stop the rest.
    const saved: ({ tool: string; version: string; status: string } | { tool: string; error: { code: string; message: string } })[] = [];
    if (body.save) {
      for (const imported of result.contracts) {
        try {
          saved.push(
            savedContractDraftBody(
              await saveDocumentDraft({
                tenantId: caller.tenantId,
                kind: 'contract',
                document: imported.document,
                createdById: actor(caller),
              }),
            ),
          );
        } catch (error) {
          if (!(error instanceof AppError)) throw error;
          saved.push({ tool: String(imported.document.id), error: { code: error.code, message: error.message } });
        }
      }
    }
    return { body: { ...result, saved } };
  },
});

/** GET /api/v1/contracts/{id}/versions/{version}/export?format=mcp — the version as another tool format. */
export const exportContractHandler = defineRoute({
  auth: { apiKey: ['validate', 'author'], session: 'read' },
  query: z.object({ format: z.enum(EXPORT_FORMATS).default('mcp') }).strict(),
  params: VersionParams,
  response: z
    .object({ format: z.enum(EXPORT_FORMATS), tool: z.looseObject({}).describe('The tool definition in the asked format.') })
    .strict(),
  handler: async ({ caller, params, query }) => {
    const version = await getDocumentVersionOrThrow({
      tenantId: caller.tenantId,
      kind: 'contract',
      id: params.id,
      version: params.version,
    });
    return {
      body: {
        format: query.format,
        tool: exportToolDefinition(version.document as Parameters<typeof exportToolDefinition>[0], query.format),
      },
    };
  },
});
