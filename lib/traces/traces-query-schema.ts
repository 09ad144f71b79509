import { z } from 'zod';
import { ListQueryFields as f } from '../listing/query-fields';

/** The traces list's query string (GET /api/v1/traces). */
export const TracesQuerySchema = z
  .object({
    tool: f.tool.optional(),
    decision: f.decision.optional().describe("Only traces whose first record (the call's validate/pre, as a rule) has this decision."),
    api_key_id: f.apiKeyId.optional(),
    since: f.since.optional(),
    until: f.until.optional(),
    q: z.string().min(1).max(128).optional().describe('A call_id (exact), or a trace id or a prefix of one (at least 4 hex characters).'),
    shadow_differs: z
      .enum(['true', 'false'])
      .optional()
      .describe(
        '`true`: list the records a shadow policy or contract version would have decided differently, with those shadow decisions.',
      ),
    cursor: f.cursor.optional(),
    limit: z.coerce.number().int().min(1).max(200).default(50),
  })
  .strict();
