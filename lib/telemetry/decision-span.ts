import type { CommittedEvidence } from '../evidence/evidence-observers';
import { CALL_EVIDENCE_KINDS } from '../evidence/evidence-kinds';

/**
 * The GenAI semantic conventions' names for a tool execution span (the `gen_ai.*` registry
 * moved out of @opentelemetry/semantic-conventions, whose copies are deprecated; OpenTelemetry
 * asks for incubating names to be copied rather than imported).
 */
export const GEN_AI = {
  operationName: 'gen_ai.operation.name',
  toolName: 'gen_ai.tool.name',
  toolCallId: 'gen_ai.tool.call.id',
  toolCallArguments: 'gen_ai.tool.call.arguments',
  executeTool: 'execute_tool',
} as const;

export type SpanAttributeValue = string | number | boolean | string[];

/** One decision as a span, in plain data: what the OpenTelemetry pipeline turns into a real span. */
export interface DecisionSpan {
  name: string;
  /** 32 hex characters: the caller's trace when it sent a `traceparent`, else Toolgate's own. */
  traceId: string;
  /** The caller's span, from its `traceparent`; null for a root span. */
  parent: { spanId: string; sampled: boolean } | null;
  /** Milliseconds since the epoch, fractional. */
  startMs: number;
  endMs: number;
  attributes: Record<string, SpanAttributeValue>;
  /** The call was refused (deny) or the result failed its contract: the span's status is ERROR. */
  refused: boolean;
  /** For `error.type`: the first error code, else the decision. */
  errorType: string | null;
}

/** Every record of a call and of an approval decision; the administrative kinds are not decisions. */
const EXPORTED_KINDS: ReadonlySet<string> = new Set(CALL_EVIDENCE_KINDS);
/** validate/pre, validate/post, pipeline and manifests answer `deny`; an approver answers `denied`. */
const REFUSALS: ReadonlySet<string> = new Set(['deny', 'denied']);

const TRACEPARENT = /^([0-9a-f]{2})-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})$/;
const ZEROS = /^0+$/;

/**
 * The span for one committed record, or null for records that are not decisions. It ends at the
 * commit (`endMs`) and starts when the request came in: the decision's own duration plus the
 * wait for its commit. Raw arguments go on it only when the operator asked (`arguments`) and the
 * tenant retains them (the record then holds them, redacted).
 */
export function decisionSpan(committed: CommittedEvidence, options: { arguments: boolean; endMs: number }): DecisionSpan | null {
  const { input, recorded } = committed;
  if (!EXPORTED_KINDS.has(input.kind)) return null;
  const refused = REFUSALS.has(input.decision);
  const codes = input.errors.map((issue) => issue.code);

  const attributes: Record<string, SpanAttributeValue> = {
    [GEN_AI.operationName]: GEN_AI.executeTool,
    [GEN_AI.toolName]: input.tool,
    [GEN_AI.toolCallId]: input.callId,
    'toolgate.decision': input.decision,
    'toolgate.evidence.kind': input.kind,
    'toolgate.evidence.id': recorded.id,
    'toolgate.evidence.seq': recorded.seq,
    'toolgate.tenant.id': input.tenantId,
    'toolgate.trace.id': input.traceId,
    'toolgate.commit_ms': round3(committed.commitMs),
  };
  if (codes.length > 0) attributes['toolgate.error.codes'] = codes;
  if (input.contractVersion) attributes['toolgate.contract.version'] = input.contractVersion;
  if (input.contractHash) attributes['toolgate.contract.hash'] = input.contractHash;
  if (input.policyId) attributes['toolgate.policy.id'] = input.policyId;
  if (input.policyVersion) attributes['toolgate.policy.version'] = input.policyVersion;
  if (input.policyRule) attributes['toolgate.policy.rule'] = input.policyRule;
  const approvalId = approvalIdOf(committed);
  if (approvalId) attributes['toolgate.approval.id'] = approvalId;
  if (input.mcpServer) attributes['toolgate.mcp.server'] = input.mcpServer;
  if (options.arguments && input.arguments) attributes[GEN_AI.toolCallArguments] = input.arguments;
  const errorType = refused ? (codes[0] ?? input.decision) : null;
  if (errorType) attributes['error.type'] = errorType;

  const caller = parseTraceparent(input.w3cTraceparent);
  const startMs = options.endMs - Math.max(0, input.durationMs) - Math.max(0, committed.commitMs);
  return {
    name: `${GEN_AI.executeTool} ${input.tool}`,
    traceId: caller?.traceId ?? input.traceId,
    parent: caller ? { spanId: caller.spanId, sampled: caller.sampled } : null,
    startMs,
    endMs: options.endMs,
    attributes,
    refused,
    errorType,
  };
}

/**
 * The approval a record created or decided: what the evidence writer's `within` returned, the
 * pending approval of a held call or the approval row an approver decided.
 */
function approvalIdOf(committed: CommittedEvidence): string | null {
  const { kind } = committed.input;
  if (kind !== 'pre' && kind !== 'approval_decision') return null;
  const extra = committed.extra;
  if (typeof extra !== 'object' || extra === null || !('id' in extra)) return null;
  return typeof extra.id === 'string' ? extra.id : null;
}

/** A traceparent's parts, or null when absent or not a valid W3C one (version ff, all-zero ids). */
export function parseTraceparent(value: string | null | undefined): { traceId: string; spanId: string; sampled: boolean } | null {
  const match = value ? TRACEPARENT.exec(value) : null;
  if (!match) return null;
  const [, version, traceId, spanId, flags] = match as unknown as [string, string, string, string, string];
  if (version === 'ff' || ZEROS.test(traceId) || ZEROS.test(spanId)) return null;
  return { traceId, spanId, sampled: (parseInt(flags, 16) & 1) === 1 };
}

const round3 = (ms: number) => Math.round(ms * 1000) / 1000;
