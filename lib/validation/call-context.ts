import { z } from 'zod';
import { plainObject } from '../json';

/** What the caller says about whom the agent acts for; CEL conditions see it as `context`. */
export const CallContextSchema = z
  .object({
    tenant_id: z.string().min(1).max(256).optional().describe('The tenant the agent acts for, in the calling application.'),
    user_id: z.string().min(1).max(256).optional().describe('The end user the agent acts for.'),
    session_id: z
      .string()
      .min(1)
      .max(256)
      .optional()
      .describe("The agent's session or conversation; limits and history functions can count per session."),
    roles: z.array(z.string().min(1).max(100)).max(50).optional().describe("The end user's roles."),
    state: plainObject('Caller-supplied state, visible to CEL conditions as context.state.').optional(),
  })
  .strict();

export type CallContext = z.infer<typeof CallContextSchema>;

/** An MCP server's name, the first segment of its tools' contract ids (lib/mcp). */
export const McpServerNameSchema = z
  .string()
  .regex(/^[a-z][a-z0-9_]{0,39}$/, 'lowercase letters, digits and _, starting with a letter, at most 40 characters');
