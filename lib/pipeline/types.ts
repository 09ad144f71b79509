// The AGN-036 pipeline context (the DDR's IAgentPipelineContext) as TypeScript types, in the
// DDR's PascalCase spelling. The validator also accepts camelCase input (see
// normalize-context.ts); these types describe the normalized, PascalCase form.

export const PIPELINE_CONTEXT_TYPES = ['Initial', 'FollowOn', 'ClientToolCallContinuation'] as const;
export type PipelineContextType = (typeof PIPELINE_CONTEXT_TYPES)[number];

export const RESPONSE_TYPES = ['Final', 'ToolContinuation'] as const;
export type ResponseType = (typeof RESPONSE_TYPES)[number];

/** The ten pipeline steps of DDR section 4, in execution order. */
export const PIPELINE_STEPS = [
  'RequestHandler',
  'SessionRestorer',
  'AgentContextResolver',
  'ClientToolContinuationResolver',
  'AgentSessionCreator',
  'AgentContextLoader',
  'PromptContentProviderInitializer',
  'Reasoner',
  'LLMClient',
  'ResponseBuilder',
] as const;
export type PipelineStep = (typeof PIPELINE_STEPS)[number];

export type PipelinePhase = 'core' | 'pre' | 'post' | 'manifest';

/** Org and User are an id or an entity-header object (for example `{ Id, Text }`). */
export type EntityRef = string | Record<string, unknown>;

export interface PipelineEnvelope {
  Org?: EntityRef | null;
  User?: EntityRef | null;
  SessionId?: string | null;
  TurnId?: string | null;
  Instructions?: string | null;
  InputArtifacts?: unknown[] | null;
  ClipBoardImages?: unknown[] | null;
  ToolResults?: unknown[] | null;
}

export interface PipelineSession {
  Id?: string | null;
  Mode?: string | null;
  [field: string]: unknown;
}

export interface PipelineTurn {
  Id?: string | null;
  [field: string]: unknown;
}

export interface ToolCall {
  ToolCallId: string;
  Name: string;
  ArgumentsJson?: string | null;
}

export interface ToolCallResult {
  ToolCallId: string;
  Name: string;
  ResultJson?: string | null;
}

export interface ToolCallManifest {
  ToolCalls: ToolCall[];
  ToolCallResults: ToolCallResult[];
}

/** DDR 4.7/4.8 only say the prompt knowledge provider must be "Ready"; this is how it says so. */
export interface PromptKnowledgeProvider {
  Ready: boolean;
  [field: string]: unknown;
}

export interface PipelineContext {
  Type: PipelineContextType;
  TimeStamp: string;
  CorrelationId: string;
  Envelope: PipelineEnvelope;
  Session?: PipelineSession | null;
  Turn?: PipelineTurn | null;
  AgentContext?: Record<string, unknown> | null;
  ConversationContext?: Record<string, unknown> | null;
  ToolCallManifest?: ToolCallManifest | null;
  PromptKnowledgeProvider?: PromptKnowledgeProvider | null;
  ResponseType?: ResponseType | null;
  ResponsePayload?: Record<string, unknown> | null;
  /** The client-side tool calls the LLMClient step asked for (the ToolContinuation outcome). */
  ClientToolCalls?: ToolCall[] | null;
}

export interface PipelineIssue {
  /** The rule id from PIPELINE_RULES or PIPELINE_SHAPE_RULES. */
  code: string;
  severity: 'error' | 'warning';
  /** Names the field, e.g. "Envelope.SessionId must be present for a FollowOn context". */
  message: string;
  /** JSON path in the DDR's PascalCase spelling, whatever spelling the input used. */
  path: string;
  /** The step and phase of the call that found the issue (core rules run inside a step say so). */
  step: PipelineStep | null;
  phase: PipelinePhase;
  details?: Record<string, unknown>;
}

export interface PipelineValidationResult {
  valid: boolean;
  errors: PipelineIssue[];
  warnings: PipelineIssue[];
}
