import { defineRoute, type Caller } from '../define-route';
import { readTraceparent } from '../../evidence/trace-id';
import { PreCallRequestSchema, validatePreCall } from '../../validation/validate-pre-call';
import { PostCallRequestSchema, validatePostCall } from '../../validation/validate-post-call';
import { ValidationResponseSchema } from '../../validation/validation-response';

type KeyCaller = Extract<Caller, { kind: 'api_key' }>;

/** POST /api/v1/validate/pre — check a proposed tool call before it runs. */
export const validatePreHandler = defineRoute({
  auth: { apiKey: 'validate' },
  body: PreCallRequestSchema,
  response: ValidationResponseSchema,
  handler: async ({ caller, body, requestId, call }) => ({
    body: await validatePreCall({ caller: caller as KeyCaller, request: body, requestId, traceparent: readTraceparent(call.header('traceparent')) }),
  }),
});

/** POST /api/v1/validate/post — check what a tool returned against its contract. */
export const validatePostHandler = defineRoute({
  auth: { apiKey: 'validate' },
  body: PostCallRequestSchema,
  response: ValidationResponseSchema,
  handler: async ({ caller, body, requestId, call }) => ({
    body: await validatePostCall({ caller: caller as KeyCaller, request: body, requestId, traceparent: readTraceparent(call.header('traceparent')) }),
  }),
});
