import type { Decision } from './decisions.ts';

/**
 * The JSON shapes of Toolgate's runtime API as an agent sees them. They are written out here
 * rather than imported from the server modules because those modules open the database; a
 * type-level test (wire-types.test.ts) keeps the two in step.
 */

export type { Decision };

/** Who and what the agent acts for; CEL conditions read it as `context`. */
export interface CallContext {
  tenant_id?: string;
  user_id?: string;
  /** The agent's session or conversation; policies can limit calls per session. */
  session_id?: string;
  roles?: string[];
  state?: Record<string, unknown>;
}

/** One finding of validate/pre or validate/post. */
export interface ValidationIssue {
  code: string;
  type: string;
  message: string;
  /** JSONPath into the checked value, e.g. `$.items[0].sku`. */
  path: string;
  details: { intent: string; suggestion: string; [key: string]: unknown };
}

export interface PreCallRequest {
  /** The contract id, e.g. `orders.lookup`. */
  tool: string;
  version?: string;
  call_id: string;
  arguments: Record<string, unknown>;
  context?: CallContext;
  confirmation_token?: string;
  approval_token?: string;
  idempotency_key?: string;
  /** Redeem an approved, unused approval of exactly this call that this key asked for (the MCP gateway does). */
  redeem_approval?: boolean;
  /** The MCP server the call goes through; recorded with the evidence. */
  mcp_server?: string;
  /** With `mcp_server`: the hash of the tool's definition as the gateway's upstream lists it now. */
  mcp_definition_hash?: string;
}

interface PostCallBase {
  tool: string;
  version?: string;
  call_id: string;
  arguments: Record<string, unknown>;
  context?: CallContext;
  side_effects?: { id: string; [key: string]: unknown }[];
  execution_ms?: number;
  mcp_server?: string;
}

/** Exactly one of `result` (the tool succeeded) or `error` (it failed). */
export type PostCallRequest = PostCallBase & ({ result: unknown; error?: undefined } | { error: unknown; result?: undefined });

export interface ApprovalRef {
  id: string;
  status: string;
  expires_at: string;
  /** Relative to the Toolgate base URL, e.g. `/api/v1/approvals/apr_...`. */
  poll_url: string;
}

/** The body of a validate/pre or validate/post answer (HTTP 200 whether or not the call is valid). */
export interface ValidationResponse {
  valid: boolean;
  decision: Decision;
  errors: ValidationIssue[];
  warnings: ValidationIssue[];
  trace_id: string;
  call_id: string;
  evidence_id: string;
  tool: string;
  version: string | null;
  contract_hash: string | null;
  error?: { code: 'AXAG_VALIDATION_ERROR'; type: string; message: string; details: Record<string, unknown> };
  /** Present when the call is refused: what the calling model should read. */
  llm_message?: string;
  /** Present when the decision is `require_approval` or `escalate`. */
  approval?: ApprovalRef;
  /** Present when the tenant has published policies: what the policy layer decided, and by which rule. */
  policy?: { decision: Decision; reason: string | null; policy_id: string | null; version: string | null; rule: string | null };
  /** Present when the decision is `transform`: run the tool with these arguments instead. */
  arguments?: Record<string, unknown>;
}

export type ApprovalStatus = 'pending' | 'approved' | 'denied' | 'expired';

export interface Approval {
  id: string;
  status: ApprovalStatus;
  tool: string;
  version: string;
  call_id: string;
  trace_id: string;
  approver_roles: string[];
  reason: string;
  created_at: string;
  expires_at: string;
  decided_at: string | null;
  comment: string | null;
  /** Present once approved and until used: the single-use token for validate/pre. */
  approval_token?: string;
  token_used: boolean;
  /** What the agent should act on: an expired approval is `denied` (undecided means denied). */
  outcome: 'pending' | 'approved' | 'denied';
  side_effect_level: string;
  /** Distinct approvals so far, and how many are needed. */
  approvals: number;
  approvers_required: number;
  escalation_level: number;
  /**
   * An approver approved edited arguments, or a policy transform rewrote the held call's (see
   * `rewritten_by`): the token is bound to `arguments`, so send exactly those.
   */
  edited: boolean;
  /** The policies and rules whose transforms rewrote the held call's arguments; null when none did. */
  rewritten_by: { policy_id: string; version: string; rule: string }[] | null;
  arguments?: Record<string, unknown>;
}

export interface ConfirmationRequest {
  tool: string;
  version?: string;
  /** The exact arguments the user confirmed; validate/pre must then get the same ones. */
  arguments: Record<string, unknown>;
  context?: CallContext;
}

export interface Confirmation {
  id: string;
  confirmation_token: string;
  expires_at: string;
  tool: string;
  version: string;
}

export type PipelineEntry = 'core' | 'pre_step' | 'post_step';

export interface PipelineValidateRequest {
  entry: PipelineEntry;
  /** Required for `pre_step` and `post_step`. */
  step?: string;
  context: Record<string, unknown>;
  /** The context before the step; only for `post_step`. */
  before?: Record<string, unknown>;
  call_id?: string;
}

export interface ManifestValidateRequest {
  manifest: Record<string, unknown>;
  call_id?: string;
}

export interface PipelineIssue {
  code: string;
  severity: 'error' | 'warning';
  message: string;
  path: string;
  step: string | null;
  phase: string;
  details?: Record<string, unknown>;
}

export interface PipelineValidationResponse {
  valid: boolean;
  errors: PipelineIssue[];
  warnings: PipelineIssue[];
  entry: string;
  step: string | null;
  trace_id: string;
  call_id: string;
  evidence_id: string;
  llm_message?: string;
}

export interface SavedContractDraft {
  tool: string;
  version: string;
  status: string;
  contentHash: string;
  /** False when an existing draft of the same version was replaced. */
  created: boolean;
}

/** The envelope of every failed request (4xx/5xx). */
export interface ApiErrorBody {
  error: { code: string; message: string; details?: Record<string, unknown> };
  request_id: string;
}

/** A tool as the MCP gateway lists it to the agent (an MCP `Tool`). */
export interface McpListedTool {
  name: string;
  title?: string;
  description: string;
  inputSchema: Record<string, unknown>;
  outputSchema?: Record<string, unknown>;
  annotations: Record<string, unknown>;
}

/** How one upstream MCP tool stands at the gateway for one caller. */
export interface McpGatewayTool {
  /** The upstream's name, which the agent calls. */
  name: string;
  contract_id: string;
  /** `drifted` when a changed definition waits for review, or when this caller's upstream lists one other than the pinned. */
  status: 'unpublished' | 'published' | 'drifted';
  /** The hash of the definition this caller's upstream lists (validate/pre `mcp_definition_hash`). */
  definition_hash?: string;
  /** Why every call of it is refused now (unpublished, drifted, or a policy), or null. */
  refused: string | null;
  /** The entry for tools/list, or null when it is not listed. */
  tool: McpListedTool | null;
  /** What to do with a result that fails the contract. */
  invalid_result: 'withhold' | 'pass_through';
}

/** The answer to POST /api/v1/mcp-servers/{server}/tools: the server's gateway settings and its tools. */
export interface McpToolReport {
  server: { name: string; list_unpublished: boolean; approval_wait_seconds: number };
  tools: McpGatewayTool[];
  /** Entries of the upstream's list that could not be used (no name, no inputSchema, too big). */
  problems: string[];
}
