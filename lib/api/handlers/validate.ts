import { defineRoute, type Caller } from '../define-route';
import { reportedNumbers, reportNumbersUnder } from '../json-body';
import { readTraceparent } from '../../evidence/trace-id';
import { PreCallRequestSchema, validatePreCall } from '../../validation/validate-pre-call';
import { PostCallRequestSchema, validatePostCall } from '../../validation/validate-post-call';
import { ValidationResponseSchema } from '../../validation/validation-response';
import { CHECKED_NUMBER_FIELDS, refuseUnrepresentableNumbers } from '../../validation/refuse-unrepresentable-numbers';

type KeyCaller = Extract<Caller, { kind: 'api_key' }>;

// A number a double cannot hold in what the agent (or its tool) produced is a refused call,
// answered and recorded as one; anywhere else in these bodies it is a 400 like on every route.

/** POST /api/v1/validate/pre — check a proposed tool call before it runs. */
export const validatePreHandler = defineRoute({
  auth: { apiKey: 'validate' },
  body: reportNumbersUnder(PreCallRequestSchema, CHECKED_NUMBER_FIELDS),
  response: ValidationResponseSchema,
  handler: async ({ caller, body, requestId, firstRecordId, call }) => {
    const options = {
      caller: caller as KeyCaller,
      request: body,
      requestId,
      firstRecordId,
      traceparent: readTraceparent(call.header('traceparent')),
    };
    const numbers = reportedNumbers(call);
    return { body: numbers ? await refuseUnrepresentableNumbers({ ...options, kind: 'pre', numbers }) : await validatePreCall(options) };
  },
});

/** POST /api/v1/validate/post — check what a tool returned against its contract. */
export const validatePostHandler = defineRoute({
  auth: { apiKey: 'validate' },
  body: reportNumbersUnder(PostCallRequestSchema, CHECKED_NUMBER_FIELDS),
  response: ValidationResponseSchema,
  handler: async ({ caller, body, requestId, firstRecordId, call }) => {
    const options = {
      caller: caller as KeyCaller,
      request: body,
      requestId,
      firstRecordId,
      traceparent: readTraceparent(call.header('traceparent')),
    };
    const numbers = reportedNumbers(call);
    return { body: numbers ? await refuseUnrepresentableNumbers({ ...options, kind: 'post', numbers }) : await validatePostCall(options) };
  },
});
