import { z } from 'zod';
import { defineRoute } from '../define-route';
import { isoDateTime } from '../response-schemas';
import { plainObject } from '../../json';
import { DECISIONS } from '../../decisions';
import { AppError } from '../../errors';
import { previewPolicyImpact } from '../../policies/policy-impact';
import { studioDocumentHandlers } from './document-handlers';

/** /api/v1/policies: list, save a draft, read a version, publish (enforce or shadow). */
export const {
  list: listPoliciesHandler,
  saveDraft: savePolicyDraftHandler,
  getVersion: getPolicyVersionHandler,
  publish: publishPolicyVersionHandler,
} = studioDocumentHandlers('policy');

const SideOutcomeSchema = z
  .object({
    decision: z.enum(DECISIONS),
    policy: z.string().nullable().describe('The policy that decided, when one did.'),
    rule: z.string().nullable().describe('Its rule, or the section (`capability`, `limit:<id>`, …) that decided.'),
    codes: z.array(z.string()).describe('The error codes the call would be answered with.'),
  })
  .strict();

const PolicyImpactSchema = z
  .object({
    policy: z.object({ id: z.string(), version: z.string() }).strict(),
    replaces: z
      .string()
      .nullable()
      .describe('The enforced version of the same policy the draft was put in place of; null when it adds one.'),
    since: isoDateTime.describe('The oldest recorded call considered.'),
    replayed: z.number().int(),
    notReplayable: z.number().int().describe('withoutArguments + withoutContext + refusedBeforePolicies.'),
    withoutArguments: z.number().int(),
    withoutContext: z.number().int(),
    refusedBeforePolicies: z
      .number()
      .int()
      .describe('Refused before any policy ran: unknown tool or version, numbers a double cannot hold.'),
    redactedArguments: z
      .number()
      .int()
      .describe('Replayed calls with argument values stored redacted; conditions reading them saw the placeholder.'),
    changed: z.number().int(),
    transitions: z.array(z.object({ from: z.enum(DECISIONS), to: z.enum(DECISIONS), calls: z.number().int() }).strict()),
    codes: z.array(z.object({ code: z.string(), added: z.number().int(), removed: z.number().int() }).strict()),
    examples: z.array(
      z
        .object({
          evidenceId: z.string(),
          callId: z.string(),
          tool: z.string(),
          at: isoDateTime,
          before: SideOutcomeSchema,
          after: SideOutcomeSchema,
        })
        .strict(),
    ),
    history: z
      .literal('replayed_calls')
      .describe('Limits and history functions counted only the replayed calls before each one, not the live counters.'),
  })
  .strict();

/**
 * POST /api/v1/policies/{id}/impact — replays a draft policy (the body, not necessarily saved)
 * against the tenant's recent recorded calls, beside the enforced policies, and reports which
 * decisions would change.
 */
export const previewPolicyImpactHandler = defineRoute({
  auth: { apiKey: 'author', session: 'read' },
  body: plainObject('The draft policy document to replay.'),
  // Any string: the draft's own `id` is checked against it, and a malformed one is the draft's problem (400 or 422), not a 404.
  params: z.object({ id: z.string().describe("The policy's id; the draft's `id` must be the same.") }),
  response: PolicyImpactSchema,
  handler: async ({ caller, params, body }) => {
    if (body.id !== params.id) throw new AppError('bad_request', `The document's id (${String(body.id)}) is not ${params.id}.`);
    return { body: await previewPolicyImpact({ tenantId: caller.tenantId, document: body }) };
  },
});
