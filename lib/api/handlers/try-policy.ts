import { z } from 'zod';
import { defineRoute } from '../define-route';
import { SIDE_EFFECT_LEVELS } from '../../contracts/contract-schema';
import { resolveContract } from '../../contracts/resolve-contract';
import { DECISIONS } from '../../decisions';
import { AppError } from '../../errors';
import { tryPolicy, TryPolicyRequestSchema, type SideEffectSource } from '../../policies/try-policy';

const IssueSchema = z
  .object({
    code: z.string(),
    type: z.string(),
    message: z.string(),
    path: z.string(),
    details: z.object({ intent: z.string(), suggestion: z.string() }).passthrough(),
  })
  .strict();

const TryPolicyResponseSchema = z
  .object({
    policy: z.object({ id: z.string(), version: z.string() }).strict(),
    tool: z.string(),
    side_effect: z
      .object({
        level: z.enum(SIDE_EFFECT_LEVELS),
        source: z.enum(['contract', 'request', 'default']),
        contract_version: z.string().nullable(),
      })
      .strict()
      .describe("The tool's side-effect level the draft saw: its published contract's, else the request's, else `none`."),
    decision: z.enum(DECISIONS),
    decided_by: z.object({ policy_id: z.string(), version: z.string(), rule: z.string() }).strict().nullable(),
    reason: z.string().nullable(),
    errors: z.array(IssueSchema).describe('The refusals, as validate/pre would report them (empty unless denied).'),
    transformed_arguments: z.record(z.string(), z.unknown()).nullable(),
    approval: z
      .object({
        roles: z.array(z.string()),
        approvers_required: z.number().int(),
        expires_in_seconds: z.number().nullable(),
        escalated: z.boolean(),
      })
      .strict()
      .nullable(),
    limits: z.array(
      z
        .object({
          policy_id: z.string(),
          limit_id: z.string(),
          kind: z.enum(['calls', 'sum']),
          per: z.string(),
          window: z.string(),
          max: z.number(),
          used: z.number(),
          amount: z.number(),
          remaining: z.number(),
          exceeded: z.boolean(),
          when_exceeded: z.enum(['deny', 'require_approval']),
          retry_after_seconds: z.number().nullable(),
        })
        .strict(),
    ),
    trace: z.array(
      z
        .object({
          policy_id: z.string(),
          step: z.enum(['capability', 'side_effect_ceiling', 'arg_constraints', 'limit', 'rule', 'approval']),
          id: z.string(),
          outcome: z.enum(['passed', 'refused', 'matched', 'not_matched', 'not_applicable', 'skipped', 'exceeded', 'error']),
          detail: z.string().optional(),
        })
        .strict(),
    ),
    simulated_calls: z.number().int(),
  })
  .strict();

/**
 * POST /api/v1/policies/try — the policy playground: one call against a draft policy (not
 * necessarily saved) with a simulated history, evaluated alone. Nothing is recorded and no
 * counter is read or written; only the tool's published contract is looked up, for its
 * side-effect level.
 */
export const tryPolicyHandler = defineRoute({
  auth: { apiKey: 'author', session: 'edit_policies' },
  body: TryPolicyRequestSchema,
  response: TryPolicyResponseSchema,
  handler: async ({ caller, body }) => {
    const resolved = await resolveContract({ tenantId: caller.tenantId, tool: body.tool });
    const source: SideEffectSource = resolved.found ? 'contract' : body.side_effect_level ? 'request' : 'default';
    const sideEffect = resolved.found
      ? {
          level: resolved.contract.compiled.document.annotations.side_effect_level,
          source,
          contractVersion: resolved.contract.version,
        }
      : { level: body.side_effect_level ?? 'none', source };
    const result = tryPolicy({
      document: body.policy,
      tool: body.tool,
      arguments: body.arguments,
      context: body.context,
      apiKeyId: body.api_key_id ?? null,
      history: body.history,
      sideEffect,
      nowMs: Date.now(),
    });
    if (!result.ok) {
      const first = result.problems[0];
      throw new AppError(
        'policy_invalid',
        `The draft policy does not compile: ${first ? `${first.path}: ${first.message}` : 'unknown problem'}`,
        {
          problems: result.problems.slice(0, 50),
        },
      );
    }
    return { body: result.answer };
  },
});
