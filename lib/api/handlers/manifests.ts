import { defineRoute } from '../define-route';
import { readTraceparent } from '../../evidence/trace-id';
import {
  ManifestValidateRequestSchema,
  PipelineValidationResponseSchema,
  validateManifestRequest,
} from '../../validation/validate-pipeline-request';

/** POST /api/v1/manifests/validate — AGN-036 section 5 on a ToolCallManifest. */
export const validateManifestHandler = defineRoute({
  auth: { apiKey: 'validate' },
  body: ManifestValidateRequestSchema,
  response: PipelineValidationResponseSchema,
  handler: async ({ caller, body, requestId, firstRecordId, call }) => ({
    body: await validateManifestRequest({
      caller,
      request: body,
      requestId,
      firstRecordId,
      traceparent: readTraceparent(call.header('traceparent')),
    }),
  }),
});
