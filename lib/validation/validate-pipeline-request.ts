import { randomUUID } from 'node:crypto';
import type { FirstRecordId } from '../evidence/first-record-id';
import { z } from 'zod';
import { plainObject } from '../json';
import type { Caller } from '../auth/caller';
import { hashCanonical } from '../contracts/canonical-json';
import { recordEvidence, type EvidenceIssue } from '../evidence/record-evidence';
import { traceIdFor } from '../evidence/trace-id';
import {
  PIPELINE_STEPS,
  validateCore,
  validatePostStep,
  validatePreStep,
  validateToolCallManifest,
  type PipelineIssue,
  type PipelineStep,
  type PipelineValidationResult,
} from '../pipeline';
import { MAX_LLM_MESSAGE_CHARS } from '@toolgate/sdk/core';

const callId = z.string().min(1).max(128).describe("Groups validations in one trace; default: the context's CorrelationId.");

export const PipelineValidateRequestSchema = z
  .object({
    entry: z
      .enum(['core', 'pre_step', 'post_step'])
      .describe('Which AGN-036 entry point: ValidateCore, ValidatePreStep or ValidatePostStep.'),
    step: z.enum(PIPELINE_STEPS).optional().describe('The pipeline step; required for pre_step and post_step.'),
    context: plainObject('The pipeline context (IAgentPipelineContext), with PascalCase or camelCase field names.'),
    before: plainObject('The context as it was before the step (post_step rules that compare PRE and POST).').optional(),
    call_id: callId.optional(),
  })
  .strict()
  .superRefine((body, ctx) => {
    if (body.entry === 'core' && body.step) ctx.addIssue({ code: 'custom', path: ['step'], message: 'core validation takes no step' });
    if (body.entry !== 'core' && !body.step)
      ctx.addIssue({ code: 'custom', path: ['step'], message: `${body.entry} needs a step: one of ${PIPELINE_STEPS.join(', ')}` });
    if (body.before && body.entry !== 'post_step')
      ctx.addIssue({ code: 'custom', path: ['before'], message: 'only post_step compares against a before snapshot' });
  });

export const ManifestValidateRequestSchema = z
  .object({
    manifest: plainObject('The ToolCallManifest: ToolCalls and ToolCallResults (PascalCase or camelCase).'),
    call_id: callId.optional(),
  })
  .strict();

const PipelineIssueSchema = z
  .object({
    code: z.string().regex(/^AGN036\.[A-Z0-9_.]+$/),
    severity: z.enum(['error', 'warning']),
    message: z.string(),
    path: z.string(),
    step: z.enum(PIPELINE_STEPS).nullable(),
    phase: z.enum(['core', 'pre', 'post', 'manifest']),
    details: z.record(z.string(), z.unknown()).optional(),
  })
  .strict();

/** The answer of pipeline and manifest validation: the runtime API's {valid, errors, warnings} shape. */
export const PipelineValidationResponseSchema = z
  .object({
    valid: z.boolean(),
    errors: z.array(PipelineIssueSchema),
    warnings: z.array(PipelineIssueSchema),
    entry: z.enum(['core', 'pre_step', 'post_step', 'manifest']),
    step: z.enum(PIPELINE_STEPS).nullable(),
    trace_id: z.string().regex(/^[0-9a-f]{32}$/),
    call_id: z.string(),
    evidence_id: z.string(),
    llm_message: z.string().optional(),
  })
  .strict();

export type PipelineValidationResponse = z.infer<typeof PipelineValidationResponseSchema>;

/** POST /api/v1/pipeline/validate: one AGN-036 entry point on a context, recorded as evidence. */
export async function validatePipelineRequest(options: {
  caller: Caller;
  request: z.infer<typeof PipelineValidateRequestSchema>;
  requestId: string;
  /** The request's, when Toolgate made its id: its first record takes that id (lib/evidence/first-record-id.ts). */
  firstRecordId?: FirstRecordId;
  traceparent: string | null;
}): Promise<PipelineValidationResponse> {
  const started = performance.now();
  const { request } = options;
  const step = request.step ?? null;
  let result: PipelineValidationResult;
  if (request.entry === 'core') result = validateCore(request.context);
  else if (request.entry === 'pre_step') result = validatePreStep(request.context, step as PipelineStep);
  else result = validatePostStep(request.context, step as PipelineStep, request.before);
  const tool = request.entry === 'core' ? 'pipeline:core' : `pipeline:${step}:${request.entry === 'pre_step' ? 'pre' : 'post'}`;
  return record({
    ...options,
    kind: 'pipeline',
    entry: request.entry,
    step,
    tool,
    subject: { context: request.context, before: request.before ?? null },
    callId: request.call_id ?? correlationId(request.context),
    result,
    started,
  });
}

/** POST /api/v1/manifests/validate: AGN-036 section 5 on one ToolCallManifest, recorded as evidence. */
export async function validateManifestRequest(options: {
  caller: Caller;
  request: z.infer<typeof ManifestValidateRequestSchema>;
  requestId: string;
  /** The request's, when Toolgate made its id: its first record takes that id (lib/evidence/first-record-id.ts). */
  firstRecordId?: FirstRecordId;
  traceparent: string | null;
}): Promise<PipelineValidationResponse> {
  const started = performance.now();
  const result = validateToolCallManifest(options.request.manifest);
  return record({
    ...options,
    kind: 'manifest',
    entry: 'manifest',
    step: null,
    tool: 'pipeline:manifest',
    subject: options.request.manifest,
    callId: options.request.call_id,
    result,
    started,
  });
}

async function record(options: {
  caller: Caller;
  requestId: string;
  firstRecordId?: FirstRecordId;
  traceparent: string | null;
  kind: 'pipeline' | 'manifest';
  entry: PipelineValidationResponse['entry'];
  step: PipelineStep | null;
  tool: string;
  subject: unknown;
  callId: string | undefined;
  result: PipelineValidationResult;
  started: number;
}): Promise<PipelineValidationResponse> {
  const { caller, result } = options;
  const callId = options.callId ?? randomUUID();
  const traceId = traceIdFor(caller.tenantId, callId);
  const evidence = await recordEvidence({
    tenantId: caller.tenantId,
    kind: options.kind,
    requestId: options.requestId,
    recordId: options.firstRecordId?.take(),
    traceId,
    callId,
    w3cTraceparent: options.traceparent,
    apiKeyId: caller.kind === 'api_key' ? caller.apiKeyId : null,
    actorUserId: caller.kind === 'session' ? caller.userId : null,
    tool: options.tool,
    argsHash: hashCanonical(options.subject),
    decision: result.valid ? 'allow' : 'deny',
    valid: result.valid,
    errors: result.errors.map(evidenceIssue),
    warnings: result.warnings.map(evidenceIssue),
    durationMs: performance.now() - options.started,
  });
  const response: PipelineValidationResponse = {
    valid: result.valid,
    errors: result.errors,
    warnings: result.warnings,
    entry: options.entry,
    step: options.step,
    trace_id: traceId,
    call_id: callId,
    evidence_id: evidence.id,
  };
  if (!result.valid) response.llm_message = pipelineLlmMessage(options.entry, options.step, result.errors);
  return response;
}

function evidenceIssue(issue: PipelineIssue): EvidenceIssue {
  return {
    code: issue.code,
    type: issue.phase === 'manifest' ? 'manifest_error' : 'pipeline_error',
    message: issue.message,
    path: issue.path,
  };
}

/** The pipeline's own correlation id, so every step of one run lands in one trace. */
function correlationId(context: Record<string, unknown>): string | undefined {
  const value = Object.hasOwn(context, 'CorrelationId')
    ? context.CorrelationId
    : Object.hasOwn(context, 'correlationId')
      ? context.correlationId
      : undefined;
  return typeof value === 'string' && value.trim() !== '' && value.length <= 128 ? value : undefined;
}

/** One bounded paragraph, as for refused tool calls: what failed, where, in rule order. */
export function pipelineLlmMessage(entry: PipelineValidationResponse['entry'], step: PipelineStep | null, errors: PipelineIssue[]): string {
  const where =
    entry === 'manifest'
      ? 'The tool call manifest'
      : `The pipeline context${step ? ` ${entry === 'pre_step' ? 'before' : 'after'} step ${step}` : ''}`;
  const listed = errors
    .slice(0, 8)
    .map((e) => `${e.code} at ${e.path}: ${e.message.length > 200 ? `${e.message.slice(0, 199)}…` : e.message}`);
  const more = errors.length > listed.length ? ` (and ${errors.length - listed.length} more)` : '';
  const text = `${where} failed ${errors.length} AGN-036 rule${errors.length === 1 ? '' : 's'}${more}: ${listed.join('; ')}. Fix these fields and validate again; do not continue the pipeline until it passes.`;
  return text.length > MAX_LLM_MESSAGE_CHARS ? `${text.slice(0, MAX_LLM_MESSAGE_CHARS - 1)}…` : text;
}
