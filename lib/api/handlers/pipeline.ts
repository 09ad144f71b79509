import { defineRoute } from '../define-route';
import { readTraceparent } from '../../evidence/trace-id';
import {
  PipelineValidateRequestSchema,
  PipelineValidationResponseSchema,
  validatePipelineRequest,
} from '../../validation/validate-pipeline-request';

/** POST /api/v1/pipeline/validate — AGN-036 core, pre-step or post-step rules on a pipeline context. */
export const validatePipelineHandler = defineRoute({
  auth: { apiKey: 'validate' },
  body: PipelineValidateRequestSchema,
  response: PipelineValidationResponseSchema,
  handler: async ({ caller, body, requestId, firstRecordId, call }) => ({
    body: await validatePipelineRequest({
      caller,
      request: body,
      requestId,
      firstRecordId,
      traceparent: readTraceparent(call.header('traceparent')),
    }),
  }),
});
