import { z } from 'zod';
import { ListQueryFields as f, wholeNumberParam } from '../listing/query-fields';
import { TRACE_SEARCH_MAX } from './search-traces';

/** The traces list's query string (GET /api/v1/traces). */
export const TracesQuerySchema = z
  .object({
    tool: f.tool.optional(),
    decision: f.decision.optional().describe("Only traces whose first record (the call's validate/pre, as a rule) has this decision."),
    api_key_id: f.apiKeyId.optional(),
    since: f.since.optional(),
    until: f.until.optional(),
    q: z
      .string()
      .min(1)
      .max(TRACE_SEARCH_MAX)
      .optional()
      .describe('Calls whose call_id or trace id starts with this text (`match=prefix`, the default) or contains it (`match=contains`).'),
    match: z
      .enum(['prefix', 'contains'])
      .optional()
      .describe(
        'How `q` matches. `prefix` goes through indexes; `contains` (and a prefix naming more than 200 calls) walks the records a scan window at a time, newest first, as the decision filter does: follow next_cursor.',
      ),
    shadow_differs: z
      .enum(['true', 'false'])
      .optional()
      .describe(
        '`true`: list the records a shadow policy or contract version would have decided differently, with those shadow decisions.',
      ),
    cursor: f.cursor.optional(),
    limit: wholeNumberParam(1, 200).default(50),
  })
  .strict();
