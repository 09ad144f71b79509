import type { JsonObject } from '../../../json';
import { PolicySchema } from '../../../policies/policy-schema';
import type { ParsedDocument } from '../../parse-document';
import type { LintOptions } from '../../types';

/** What every policy rule reads. */
export interface PolicyContext {
  parsed: ParsedDocument;
  options: LintOptions;
  document: JsonObject;
  conformance: ReturnType<typeof PolicySchema.safeParse>;
}
