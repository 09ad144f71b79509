import { z } from 'zod';
import { SIDE_EFFECT_LEVELS } from '../contracts/contract-schema';
import { DECISIONS } from '../decisions';

/**
 * A policy's test cases (`tests`), as OPA's and Cerbos's policy tests live beside the policy:
 * an example call and the decision the policy must reach. lib/policies/policy-tests.ts runs
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
    context: z
      .object({
        tenant_id: z.string().max(200).optional().describe("The caller's tenant id."),
        user_id: z.string().max(200).optional().describe("The calling user's id."),
        roles: z.array(z.string().max(100)).max(20).optional().describe("The caller's roles."),
        state: z.record(z.string(), z.unknown()).optional().describe('Application state the rules read as `context.state`.'),
      })
      .strict()
      .default({})
      .describe('Who is calling, as the runtime would establish it.'),
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
