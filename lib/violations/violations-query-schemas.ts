import { z } from 'zod';
import { ListQueryFields as f, wholeNumberParam } from '../listing/query-fields';
import { VIOLATION_KINDS } from './violation-kinds';

export const ViolationFilterFields = {
  code: z.string().min(1).max(64).optional().describe('Only this error code.'),
  tool: f.tool.optional(),
  api_key_id: f.apiKeyId.optional(),
  decision: f.decision.optional(),
  kind: z
    .enum(VIOLATION_KINDS)
    .optional()
    .describe(
      'Only this kind: `arguments` (agent mistakes), `policy` (policy, limit, scope or role refusals), `approval` (held for a person), `tool` (validate/post failures).',
    ),
  since: f.since.optional(),
  until: f.until.optional(),
};

/** CSV exports stop here; narrow the time range for older rows. */
export const CSV_ROWS_MAX = 100_000;

export const ViolationsQuerySchema = z
  .object({
    ...ViolationFilterFields,
    cursor: f.cursor.optional(),
    limit: wholeNumberParam(1, 500).default(100),
    format: z
      .enum(['json', 'csv'])
      .default('json')
      .describe(
        `\`csv\`: every matching violation, newest first, as a CSV download (at most ${CSV_ROWS_MAX.toLocaleString('en-US')} rows; cursor and limit do not apply).`,
      ),
  })
  .strict();

export const ViolationStatsQuerySchema = z
  .object({
    ...ViolationFilterFields,
    bucket: z
      .enum(['hour', 'day'])
      .optional()
      .describe(
        'Hour or day bars (hours for ranges up to 8 days). Default: hours up to 2 days, days past 8; in between days, unless every violation of the range falls on one day.',
      ),
  })
  .strict();
