import { z } from 'zod';
import type { ValidationIssue } from './error-codes';
import { DECISIONS, type Decision } from '../decisions';
import { llmMessage, primaryErrorEnvelope } from '@toolgate/sdk/core';

const IssueSchema = z
  .object({
    code: z.string().regex(/^AXAG_[A-Z_]+$/),
    type: z.string(),
    message: z.string(),
    path: z.string(),
    details: z.object({ intent: z.string(), suggestion: z.string() }).passthrough(),
  })
  .strict();

/** The body of every validate/pre and validate/post answer (HTTP 200, valid or not). */
export const ValidationResponseSchema = z
  .object({
    valid: z.boolean(),
    decision: z.enum(DECISIONS),
    errors: z.array(IssueSchema),
    warnings: z.array(IssueSchema),
    trace_id: z.string().regex(/^[0-9a-f]{32}$/),
    call_id: z.string(),
    evidence_id: z.string(),
    tool: z.string(),
    version: z.string().nullable(),
    contract_hash: z.string().nullable(),
    error: z
      .object({
        code: z.literal('AXAG_VALIDATION_ERROR'),
        type: z.string().describe("The primary error's specific failure (`precondition_failed`): its code's envelope type."),
        message: z.string(),
        details: z.record(z.string(), z.unknown()),
      })
      .strict()
      .optional(),
    llm_message: z.string().optional(),
    approval: z.object({ id: z.string(), status: z.string(), expires_at: z.string(), poll_url: z.string() }).strict().optional(),
    policy: z
      .object({
        decision: z.enum(DECISIONS),
        reason: z.string().nullable(),
        policy_id: z.string().nullable(),
        version: z.string().nullable(),
        rule: z.string().nullable(),
      })
      .strict()
      .optional()
      .describe("The policy layer's part in the decision, when the tenant has published policies."),
    arguments: z
      .record(z.string(), z.unknown())
      .optional()
      .describe('When the decision is `transform`: the arguments to run the tool with instead.'),
  })
  .strict();

export type ValidationResponse = z.infer<typeof ValidationResponseSchema>;

export function buildValidationResponse(options: {
  tool: string;
  version?: string;
  contractHash?: string;
  callId: string;
  traceId: string;
  evidenceId: string;
  errors: ValidationIssue[];
  warnings: ValidationIssue[];
  decision: Decision;
  approval?: ValidationResponse['approval'];
  policy?: ValidationResponse['policy'];
  transformedArguments?: Record<string, unknown>;
  /** `post` for validate/post: the llm_message then speaks of a refused result, not a call to correct. */
  phase?: 'pre' | 'post';
}): ValidationResponse {
  const valid = options.errors.length === 0;
  const response: ValidationResponse = {
    valid,
    decision: options.decision,
    errors: options.errors,
    warnings: options.warnings,
    trace_id: options.traceId,
    call_id: options.callId,
    evidence_id: options.evidenceId,
    tool: options.tool,
    version: options.version ?? null,
    contract_hash: options.contractHash ?? null,
  };
  if (!valid) {
    const envelope = primaryErrorEnvelope(options.tool, options.errors);
    if (envelope) response.error = envelope.error;
    response.llm_message = llmMessage({ tool: options.tool, errors: options.errors, warnings: options.warnings, phase: options.phase });
  }
  if (options.approval) response.approval = options.approval;
  if (options.policy) response.policy = options.policy;
  if (options.transformedArguments) response.arguments = options.transformedArguments;
  return response;
}
