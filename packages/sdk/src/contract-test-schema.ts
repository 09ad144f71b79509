import { z } from 'zod';
import { DECISIONS } from './decisions.ts';

/**
 * The shape of a contract's test cases (`tests`); lib/validation/contract-tests.ts runs them.
 * Kept apart from the runner so the contract format stays free of the validation code.
 */
export const ContractTestSchema = z
  .object({
    name: z.string().min(1).max(200).describe('What the case shows, e.g. `refunds above the limit need approval`.'),
    arguments: z.unknown().describe('The call arguments, as an agent would send them.'),
    context: z
      .object({
        tenant_id: z.string().max(200).optional().describe("The caller's tenant id."),
        user_id: z.string().max(200).optional().describe("The calling user's id."),
        roles: z.array(z.string().max(100)).max(20).optional().describe("The caller's roles."),
      })
      .strict()
      .optional()
      .describe('Who is calling, as the runtime would establish it.'),
    confirmed: z.boolean().optional().describe('Pretend the call carries a valid confirmation token.'),
    approved: z.boolean().optional().describe('Pretend the call carries a valid approval token.'),
    expect: z
      .object({
        decision: z.enum(DECISIONS).describe('The decision validate/pre must answer.'),
        errors: z
          .array(z.string().max(100))
          .max(50)
          .optional()
          .describe('Exactly these error codes (any order); omit to check only the decision.'),
      })
      .strict()
      .describe('What validate/pre must answer.'),
  })
  .strict()
  .describe('An example call and the answer it must get.');

export type ContractTest = z.output<typeof ContractTestSchema>;
