import { defineRoute } from '../define-route';
import { JsonSchemaDocument } from '../response-schemas';
import { readTraceparent } from '../../evidence/trace-id';
import { PIPELINE_CONTEXT_JSON_SCHEMA, TOOL_CALL_MANIFEST_JSON_SCHEMA } from '../../pipeline';
import {
  ManifestValidateRequestSchema,
  PipelineValidateRequestSchema,
  PipelineValidationResponseSchema,
  validateManifestRequest,
  validatePipelineRequest,
} from '../../validation/validate-pipeline-request';

/** POST /api/v1/pipeline/validate — AGN-036 core, pre-step or post-step rules on a pipeline context. */
export const validatePipelineHandler = defineRoute({
  auth: { apiKey: 'validate' },
  body: PipelineValidateRequestSchema,
  response: PipelineValidationResponseSchema,
  handler: async ({ caller, body, requestId, call }) => ({
    body: await validatePipelineRequest({ caller, request: body, requestId, traceparent: readTraceparent(call.header('traceparent')) }),
  }),
});

/** POST /api/v1/manifests/validate — AGN-036 section 5 on a ToolCallManifest. */
export const validateManifestHandler = defineRoute({
  auth: { apiKey: 'validate' },
  body: ManifestValidateRequestSchema,
  response: PipelineValidationResponseSchema,
  handler: async ({ caller, body, requestId, call }) => ({
    body: await validateManifestRequest({ caller, request: body, requestId, traceparent: readTraceparent(call.header('traceparent')) }),
  }),
});

/** GET /api/v1/schemas/pipeline-context.json — the JSON Schema of AGN-036 pipeline contexts (public). */
export const pipelineContextSchemaHandler = defineRoute({
  auth: 'none',
  response: JsonSchemaDocument,
  handler: async () => ({ body: PIPELINE_CONTEXT_JSON_SCHEMA, headers: { 'cache-control': 'public, max-age=300' } }),
});

/** GET /api/v1/schemas/tool-call-manifest.json — the JSON Schema of tool-call manifests (public). */
export const toolCallManifestSchemaHandler = defineRoute({
  auth: 'none',
  response: JsonSchemaDocument,
  handler: async () => ({ body: TOOL_CALL_MANIFEST_JSON_SCHEMA, headers: { 'cache-control': 'public, max-age=300' } }),
});
