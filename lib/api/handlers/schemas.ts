import { defineRoute } from '../define-route';
import { NO_QUERY } from '../no-query';
import { JsonSchemaDocument } from '../response-schemas';
import { toolContractJsonSchema } from '../../contracts/contract-schema';
import { policyJsonSchema } from '../../policies/policy-schema';
import { surfaceJsonSchema } from '../../surfaces/surface-schema';
import { PIPELINE_CONTEXT_JSON_SCHEMA, TOOL_CALL_MANIFEST_JSON_SCHEMA } from '../../pipeline';

// The public JSON Schemas of every document format Toolgate reads (GET /api/v1/schemas/*.json):
// no auth, cacheable, what editors and agents point their validators at.

/** GET /api/v1/schemas/tool-contract.json — the JSON Schema of the contract format (public). */
export const toolContractSchemaHandler = defineRoute({
  auth: 'none',
  query: NO_QUERY,
  response: JsonSchemaDocument,
  handler: async () => ({ body: toolContractJsonSchema(), headers: { 'cache-control': 'public, max-age=300' } }),
});

/** GET /api/v1/schemas/policy.json — the JSON Schema of policy documents (public, drives editors). */
export const policySchemaHandler = defineRoute({
  auth: 'none',
  query: NO_QUERY,
  response: JsonSchemaDocument,
  handler: async () => ({ body: policyJsonSchema(), headers: { 'cache-control': 'public, max-age=300' } }),
});

/** GET /api/v1/schemas/surface.json — the JSON Schema of tool surface documents (public). */
export const surfaceSchemaHandler = defineRoute({
  auth: 'none',
  query: NO_QUERY,
  response: JsonSchemaDocument,
  handler: async () => ({ body: surfaceJsonSchema(), headers: { 'cache-control': 'public, max-age=300' } }),
});

/** GET /api/v1/schemas/pipeline-context.json — the JSON Schema of AGN-036 pipeline contexts (public). */
export const pipelineContextSchemaHandler = defineRoute({
  auth: 'none',
  query: NO_QUERY,
  response: JsonSchemaDocument,
  handler: async () => ({ body: PIPELINE_CONTEXT_JSON_SCHEMA, headers: { 'cache-control': 'public, max-age=300' } }),
});

/** GET /api/v1/schemas/tool-call-manifest.json — the JSON Schema of tool-call manifests (public). */
export const toolCallManifestSchemaHandler = defineRoute({
  auth: 'none',
  query: NO_QUERY,
  response: JsonSchemaDocument,
  handler: async () => ({ body: TOOL_CALL_MANIFEST_JSON_SCHEMA, headers: { 'cache-control': 'public, max-age=300' } }),
});
