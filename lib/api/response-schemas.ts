import { z } from 'zod';

/**
 * Pieces of the answers' schemas that several handlers share. A handler's answer is checked
 * before it is serialised (TOOLGATE_VALIDATE_RESPONSES=1), while the OpenAPI document describes
 * it after: these schemas take the value as the handler holds it and describe it as it is sent.
 */

/** A `Date` in the handler's answer; on the wire its ISO 8601 text (what JSON.stringify writes). */
export const isoDateTime = z.codec(z.date(), z.string().meta({ format: 'date-time' }), {
  decode: (date) => date.toISOString(),
  encode: (text) => new Date(text),
});

/** A JSON Schema document (draft 2020-12) served for editors and agents. */
export const JsonSchemaDocument = z
  .looseObject({ $schema: z.string().optional(), type: z.string().optional() })
  .describe('A JSON Schema document.');
