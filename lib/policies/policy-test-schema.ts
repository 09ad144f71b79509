import { z } from 'zod';
import { SIDE_EFFECT_LEVELS } from '../contracts/contract-schema';
import { DECISIONS } from '../decisions';
import { MAX_WINDOW_SECONDS } from '../history/history-terms';

/** The most past calls one test case may declare: what the playground accepts too. */
export const MAX_TEST_HISTORY = 1000;

const TestContextSchema = z
  .object({
    tenant_id: z.string().max(200).optional().describe("The caller's tenant id."),
    user_id: z.string().max(200).optional().describe("The calling user's id (what `user` scopes count by)."),
    session_id: z.string().max(200).optional().describe("The agent's session or conversation (what `session` scopes count by)."),
    roles: z.array(z.string().max(100)).max(20).optional().describe("The caller's roles."),
    state: z.record(z.string(), z.unknown()).optional().describe('Application state the rules read as `context.state`.'),
  })
  .strict();

const apiKeyId = z.string().min(1).max(128);

/** A call made before the tried one, as `simulatedHistory` counts it (lib/history/simulated-history.ts). */
export const PolicyTestPastCallSchema = z
  .object({
    tool: z.string().min(1).max(128).describe('The tool id of the past call.'),
    arguments: z
      .record(z.string(), z.unknown())
      .optional()
      .describe("Its arguments (what `max_sum`, `history.sum` and `history.called_with` read); default: the tried call's."),
    context: TestContextSchema.optional().describe("Who made it (its user and session); default: the tried call's context."),
    api_key_id: apiKeyId
      .nullable()
      .optional()
      .describe("The API key it was made with (what `key` scopes count by); default: the tried call's."),
    decision: z
      .enum(DECISIONS)
      .default('allow')
      .describe(
        'How it was decided (default `allow`). Limits count only allowed calls (`allow`, `transform`); `history.count(…, decision)` counts one decision.',
      ),
    seconds_ago: z
      .number()
      .min(0)
      .max(MAX_WINDOW_SECONDS)
      .describe('How long before the tried call it was made, in seconds (at most 31 days, the history Toolgate keeps).'),
  })
  .strict()
  .describe('A call made before the tried one.');

/**
 * A policy's test cases (`tests`), as OPA's and Cerbos's policy tests live beside the policy:
 * an example call, the calls made before it (`history`), and the decision the policy must reach. lib/policies/policy-tests.ts runs
 * them; kept apart so the policy format stays free of the evaluator.
 */
export const PolicyTestSchema = z
  .object({
    name: z.string().min(1).max(200).describe('What the case shows, e.g. `large refunds need two approvers`.'),
    tool: z.string().min(1).max(128).describe('The tool id being called.'),
    side_effect_level: z
      .enum(SIDE_EFFECT_LEVELS)
      .default('none')
      .describe("The tool's side-effect level, as its contract declares it (default `none`); it matters for `side_effect_ceiling`."),
    arguments: z.record(z.string(), z.unknown()).default({}).describe('The call arguments, as an agent would send them.'),
    context: TestContextSchema.default({}).describe('Who is calling, as the runtime would establish it.'),
    api_key_id: apiKeyId
      .optional()
      .describe('The API key the call is made with, for limits and history per `key`; default: one key shared with the history.'),
    history: z
      .array(PolicyTestPastCallSchema)
      .max(MAX_TEST_HISTORY)
      .optional()
      .describe(
        'Calls made before this one, for limits and `history.*` conditions; none by default. The case runs at a fixed instant, so a call at most `window` seconds ago is in a window.',
      ),
    expect: z
      .object({
        decision: z.enum(DECISIONS).describe('The decision the policy must reach.'),
        rule: z
          .string()
          .max(100)
          .optional()
          .describe('The rule (or section: `capability`, `side_effect_ceiling`, `arg_constraints`, `approval`) that must decide.'),
        errors: z
          .array(z.string().max(100))
          .max(50)
          .optional()
          .describe('Exactly these error codes (any order); omit to check only the decision.'),
        arguments: z.record(z.string(), z.unknown()).optional().describe('For `transform`: the arguments after the rewrite.'),
      })
      .strict()
      .describe('What the policy must decide.'),
  })
  .strict()
  .describe('An example call and the decision it must get.');

export type PolicyTest = z.output<typeof PolicyTestSchema>;
