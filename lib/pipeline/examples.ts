// Realistic pipeline contexts, step by step, for the tests and the benchmark. Each run is the
// sequence of steps a context of that type goes through, with the context before and after
// each step; every snapshot passes its step's PRE and POST rules.
//
// The DDR leaves open who restores the turn of a continuation: SessionRestorer's POST wants a
// turn id different from Envelope.TurnId, ClientToolContinuationResolver's POST wants it equal.
// These runs read that as: SessionRestorer opens a new turn, and ClientToolContinuationResolver
// goes back to the turn that asked for the client tools.
import type { PipelineContext, PipelineContextType, PipelineStep, ToolCall, ToolCallManifest } from './types';

export interface ExampleStep {
  step: PipelineStep;
  before: PipelineContext;
  after: PipelineContext;
}

const toolCalls: ToolCall[] = [
  { ToolCallId: 'call_01HZX3', Name: 'read_file', ArgumentsJson: '{"path":"src/orders/list.ts"}' },
  { ToolCallId: 'call_01HZX4', Name: 'search_code', ArgumentsJson: '{"query":"listOpenOrders","limit":20}' },
  { ToolCallId: 'call_01HZX5', Name: 'run_tests', ArgumentsJson: '{"pattern":"orders"}' },
];

export function exampleManifest(): ToolCallManifest {
  return {
    ToolCalls: structuredClone(toolCalls),
    ToolCallResults: toolCalls.map(({ ToolCallId, Name }, i) => ({
      ToolCallId,
      Name,
      ResultJson: JSON.stringify({ ok: true, output: `result ${i} `.repeat(20) }),
    })),
  };
}

function created(type: PipelineContextType): PipelineContext {
  const continuation = type === 'ClientToolCallContinuation';
  return {
    Type: type,
    TimeStamp: '2025-06-03T14:22:05.118Z',
    CorrelationId: '6f1c2b7e-3d4a-4f7e-9a51-0c8e2d9b7a13',
    Envelope: {
      Org: { Id: 'org_7Q2M', Text: 'Acme Logistics' },
      User: { Id: 'usr_K81P', Text: 'Ada Lovelace' },
      SessionId: type === 'Initial' ? null : 'ses_01HZX1',
      TurnId: type === 'Initial' ? null : 'turn_01HZX2',
      Instructions: continuation ? null : 'Find why the open-orders list is empty for customers in the EU region and propose a fix.',
      InputArtifacts: continuation ? [] : [{ Id: 'art_1', Name: 'orders-screenshot.png', ContentType: 'image/png', Size: 48213 }],
      ClipBoardImages: [],
      ToolResults: continuation ? exampleManifest().ToolCallResults : [],
    },
    Session: null,
    Turn: null,
    AgentContext: null,
    ConversationContext: null,
    ToolCallManifest: null,
    PromptKnowledgeProvider: null,
    ResponseType: null,
    ResponsePayload: null,
    ClientToolCalls: null,
  };
}

const agentContext = {
  AgentContext: {
    Id: 'agt_coder',
    Name: 'Code assistant',
    Model: 'gpt-4.1',
    Temperature: 0.2,
    Tools: toolCalls.map(({ Name }) => ({ Name, Scope: 'client' })),
  },
  ConversationContext: {
    Id: 'conv_9',
    Name: 'Default',
    SystemPrompts: ['You are a careful senior engineer.', 'Answer with a diff when you change code.'],
  },
};

const session = (turnId: string) => ({ Session: { Id: 'ses_01HZX1', Mode: 'Chat' }, Turn: { Id: turnId, Status: 'Open' } });

const finalOutcome = {
  ResponseType: 'Final' as const,
  ResponsePayload: {
    Text: 'The EU filter compares a lowercase region code with "EU"; compare case-insensitively.',
    Usage: { Prompt: 1834, Completion: 212 },
  },
  ClientToolCalls: [],
};

const toolOutcome = { ResponseType: 'ToolContinuation' as const, ResponsePayload: null, ClientToolCalls: structuredClone(toolCalls) };

const STEPS_BY_TYPE: Record<PipelineContextType, [PipelineStep, Partial<PipelineContext>][]> = {
  Initial: [
    ['RequestHandler', {}],
    ['AgentContextResolver', agentContext],
    ['AgentSessionCreator', session('turn_01HZX2')],
    ['PromptContentProviderInitializer', { PromptKnowledgeProvider: { Ready: true } }],
    ['Reasoner', {}],
    ['LLMClient', toolOutcome],
    ['ResponseBuilder', {}],
  ],
  FollowOn: [
    ['RequestHandler', {}],
    ['SessionRestorer', session('turn_01HZX6')],
    ['AgentContextLoader', agentContext],
    ['PromptContentProviderInitializer', { PromptKnowledgeProvider: { Ready: true } }],
    ['Reasoner', {}],
    ['LLMClient', finalOutcome],
    ['ResponseBuilder', {}],
  ],
  ClientToolCallContinuation: [
    ['RequestHandler', {}],
    ['SessionRestorer', session('turn_01HZX6')],
    ['ClientToolContinuationResolver', { Turn: { Id: 'turn_01HZX2', Status: 'AwaitingTools' }, ToolCallManifest: exampleManifest() }],
    ['AgentContextLoader', agentContext],
    ['PromptContentProviderInitializer', { PromptKnowledgeProvider: { Ready: true } }],
    ['Reasoner', {}],
    ['LLMClient', finalOutcome],
    ['ResponseBuilder', {}],
  ],
};

/** The steps a context of `type` goes through, each with fresh, independent snapshots. */
export function exampleRun(type: PipelineContextType): ExampleStep[] {
  let current = created(type);
  return STEPS_BY_TYPE[type].map(([step, changes]) => {
    const before = structuredClone(current);
    current = structuredClone({ ...current, ...changes });
    return { step, before, after: structuredClone(current) };
  });
}

/** The snapshots around one step of a run; throws if the step is not part of that run. */
export function exampleStep(type: PipelineContextType, step: PipelineStep): ExampleStep {
  const found = exampleRun(type).find((entry) => entry.step === step);
  if (!found) throw new Error(`${step} is not part of an example ${type} run`);
  return found;
}
