// The names and JSON types of every field the validator reads, in one table. The normalizer
// (normalize-context.ts) and the published JSON Schemas (json-schema.ts) are both derived from
// it, so the schema cannot document a field the validator ignores or the other way round.
import { PIPELINE_CONTEXT_TYPES, RESPONSE_TYPES } from './types';

export type FieldSpec =
  | { kind: 'string'; description: string; enum?: readonly string[] }
  | { kind: 'boolean'; description: string }
  /** A non-empty string id or an entity-header object. */
  | { kind: 'entity'; description: string }
  /** Without `fields` the object is opaque: its content belongs to another DDR. */
  | { kind: 'object'; description: string; fields?: FieldMap }
  /** Without `items` the entries are opaque. */
  | { kind: 'array'; description: string; items?: ObjectFieldSpec };

export type ObjectFieldSpec = Extract<FieldSpec, { kind: 'object' }>;
export type FieldMap = Readonly<Record<string, FieldSpec>>;

/** The camelCase spelling the validator accepts beside the DDR's PascalCase one. */
export function camelCaseOf(pascal: string): string {
  return pascal.charAt(0).toLowerCase() + pascal.slice(1);
}

const toolCallEntry: ObjectFieldSpec = {
  kind: 'object',
  description: 'One tool call the model asked for.',
  fields: {
    ToolCallId: { kind: 'string', description: 'Id pairing the call with its result; required, non-empty.' },
    Name: { kind: 'string', description: 'Tool name; required, non-empty.' },
    ArgumentsJson: { kind: 'string', description: 'Arguments as a JSON text.' },
  },
};

const toolCallResultEntry: ObjectFieldSpec = {
  kind: 'object',
  description: 'The result of one tool call, at the same index as its call.',
  fields: {
    ToolCallId: { kind: 'string', description: 'Must equal the ToolCallId of the call at the same index.' },
    Name: { kind: 'string', description: 'Must equal the Name of the call at the same index.' },
    ResultJson: { kind: 'string', description: 'Result as a JSON text; required, non-empty (DDR 5).' },
  },
};

export const TOOL_CALL_MANIFEST_FIELDS: FieldMap = {
  ToolCalls: { kind: 'array', description: 'Tool calls in the order the model made them.', items: toolCallEntry },
  ToolCallResults: {
    kind: 'array',
    description: 'One result per tool call, same count and same order as ToolCalls.',
    items: toolCallResultEntry,
  },
};

export const PIPELINE_CONTEXT_FIELDS: FieldMap = {
  Type: { kind: 'string', description: 'AgentPipelineContextTypes value.', enum: PIPELINE_CONTEXT_TYPES },
  TimeStamp: { kind: 'string', description: 'When the context was created; non-empty.' },
  CorrelationId: { kind: 'string', description: 'Correlates the request across the pipeline; non-empty.' },
  Envelope: {
    kind: 'object',
    description: 'The request as the client sent it.',
    fields: {
      Org: { kind: 'entity', description: 'Organisation: an id or an entity-header object; required.' },
      User: { kind: 'entity', description: 'User: an id or an entity-header object; required.' },
      SessionId: { kind: 'string', description: 'Empty for Initial; required for FollowOn and ClientToolCallContinuation.' },
      TurnId: { kind: 'string', description: 'Empty for Initial; required for FollowOn and ClientToolCallContinuation.' },
      Instructions: { kind: 'string', description: 'User instructions.' },
      InputArtifacts: { kind: 'array', description: 'Attached input artifacts.' },
      ClipBoardImages: { kind: 'array', description: 'Pasted images.' },
      ToolResults: { kind: 'array', description: 'Client tool results; only for ClientToolCallContinuation.' },
    },
  },
  Session: {
    kind: 'object',
    description: 'The agent session, once restored or created.',
    fields: {
      Id: { kind: 'string', description: 'Session id.' },
      Mode: { kind: 'string', description: 'Session mode; must have a value once the session is restored.' },
    },
  },
  Turn: {
    kind: 'object',
    description: 'The current turn, once restored or created.',
    fields: { Id: { kind: 'string', description: 'Turn id.' } },
  },
  AgentContext: { kind: 'object', description: 'The resolved agent context (content defined elsewhere).' },
  ConversationContext: { kind: 'object', description: 'The resolved conversation context (content defined elsewhere).' },
  ToolCallManifest: {
    kind: 'object',
    description: 'Pairs client tool calls with their results (DDR 5).',
    fields: TOOL_CALL_MANIFEST_FIELDS,
  },
  PromptKnowledgeProvider: {
    kind: 'object',
    description: 'State of the prompt knowledge provider.',
    fields: { Ready: { kind: 'boolean', description: 'True once the provider is ready (DDR 4.7, 4.8).' } },
  },
  ResponseType: { kind: 'string', description: 'Outcome of the LLMClient step.', enum: RESPONSE_TYPES },
  ResponsePayload: { kind: 'object', description: 'The final response (Final outcome); content defined by AGN-033.' },
  ClientToolCalls: {
    kind: 'array',
    description: 'Client tool calls the LLMClient step asked for (ToolContinuation outcome).',
    items: toolCallEntry,
  },
};
