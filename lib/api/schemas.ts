import { z } from 'zod';

/**
 * A JSON object passed through untouched. Zod's record schema copies keys into a fresh object,
 * where a `__proto__` key would become a prototype; agent-supplied arguments must stay plain
 * data exactly as parsed, so they are checked, not copied.
 */
export function plainObject(description: string) {
  return z
    .custom<Record<string, unknown>>((value) => typeof value === 'object' && value !== null && !Array.isArray(value), { message: 'must be a JSON object' })
    .describe(description);
}

export const CallContextSchema = z
  .object({
    tenant_id: z.string().min(1).max(256).optional().describe('The tenant the agent acts for, in the calling application.'),
    user_id: z.string().min(1).max(256).optional().describe('The end user the agent acts for.'),
    roles: z.array(z.string().min(1).max(100)).max(50).optional().describe("The end user's roles."),
    state: plainObject('Caller-supplied state, visible to CEL conditions as context.state.').optional(),
  })
  .strict();

export type CallContext = z.infer<typeof CallContextSchema>;
