// Every rule in the registry fires on a context made to break exactly that rule, and stays quiet
// on its near-twin. A rule added to the registry without a case here fails the suite.
import { describe, expect, it } from 'vitest';
import { exampleManifest, exampleStep } from './examples';
import { PIPELINE_RULES, PIPELINE_SHAPE_RULES, PIPELINE_STEP_PLAN } from './rules';
import { codes, nested, warningCodes, withField, withFields } from './test-helpers';
import { PIPELINE_STEPS, type PipelineContextType, type PipelineStep, type PipelineValidationResult } from './types';
import { validateCore, validatePostStep, validatePreStep, validateToolCallManifest } from './validate-pipeline';

type Edits = Record<string, unknown>;
interface Case {
  pass: () => PipelineValidationResult;
  fail: () => PipelineValidationResult;
}

const created = (type: PipelineContextType) => exampleStep(type, 'RequestHandler').after;

const core = (type: PipelineContextType, edits: Edits): Case => ({
  pass: () => validateCore(created(type)),
  fail: () => validateCore(withFields(created(type), edits)),
});

const pre = (type: PipelineContextType, step: PipelineStep, edits: Edits): Case => ({
  pass: () => validatePreStep(exampleStep(type, step).before, step),
  fail: () => validatePreStep(withFields(exampleStep(type, step).before, edits), step),
});

/** POST cases edit the context after the step, and `before` too when the edit must not look like a change. */
const post = (type: PipelineContextType, step: PipelineStep, edits: Edits, beforeEdits: Edits = {}): Case => {
  const { before, after } = exampleStep(type, step);
  return {
    pass: () => validatePostStep(after, step, before),
    fail: () => validatePostStep(withFields(after, edits), step, withFields(before, beforeEdits)),
  };
};

const manifest = (edits: Edits): Case => ({
  pass: () => validateToolCallManifest(exampleManifest()),
  fail: () => validateToolCallManifest(withFields(exampleManifest(), edits)),
});

const manyResultsWithoutJson = (count: number) => {
  const calls = Array.from({ length: count }, (_, i) => ({ ToolCallId: `c${i}`, Name: 'read_file' }));
  return { ToolCalls: calls, ToolCallResults: calls };
};

const I = 'Initial';
const F = 'FollowOn';
const C = 'ClientToolCallContinuation';
const toolResult = { ToolCallId: 'call_1', Name: 'read_file', ResultJson: '{}' };

const CASES: Record<string, Case> = {
  'AGN036.CORE.TYPE': core(I, { Type: 'Bogus' }),
  'AGN036.CORE.TIMESTAMP': core(I, { TimeStamp: '   ' }),
  'AGN036.CORE.CORRELATION_ID': core(I, { CorrelationId: '' }),
  'AGN036.CORE.ENVELOPE_ORG': core(I, { 'Envelope.Org': null }),
  'AGN036.CORE.ENVELOPE_USER': core(F, { 'Envelope.User': '' }),
  'AGN036.ENVELOPE.INPUT_REQUIRED': core(I, {
    'Envelope.Instructions': null,
    'Envelope.InputArtifacts': [],
    'Envelope.ClipBoardImages': undefined,
  }),
  'AGN036.ENVELOPE.INITIAL.SESSION_ID_EMPTY': core(I, { 'Envelope.SessionId': 'ses_1' }),
  'AGN036.ENVELOPE.INITIAL.TURN_ID_EMPTY': core(I, { 'Envelope.TurnId': 'turn_1' }),
  'AGN036.ENVELOPE.INITIAL.TOOL_RESULTS_EMPTY': core(I, { 'Envelope.ToolResults': [toolResult] }),
  'AGN036.ENVELOPE.FOLLOW_ON.SESSION_ID_PRESENT': core(F, { 'Envelope.SessionId': null }),
  'AGN036.ENVELOPE.FOLLOW_ON.TURN_ID_PRESENT': core(F, { 'Envelope.TurnId': ' ' }),
  'AGN036.ENVELOPE.FOLLOW_ON.TOOL_RESULTS_EMPTY': core(F, { 'Envelope.ToolResults': [toolResult] }),
  'AGN036.ENVELOPE.CONTINUATION.SESSION_ID_PRESENT': core(C, { 'Envelope.SessionId': undefined }),
  'AGN036.ENVELOPE.CONTINUATION.TURN_ID_PRESENT': core(C, { 'Envelope.TurnId': '' }),
  'AGN036.ENVELOPE.CONTINUATION.TOOL_RESULTS_PRESENT': core(C, { 'Envelope.ToolResults': [] }),

  'AGN036.SESSION_RESTORER.PRE.SESSION_ID_PRESENT': pre(F, 'SessionRestorer', { 'Envelope.SessionId': null }),
  'AGN036.SESSION_RESTORER.PRE.TURN_ID_PRESENT': pre(F, 'SessionRestorer', { 'Envelope.TurnId': null }),
  'AGN036.SESSION_RESTORER.PRE.SESSION_NULL': pre(F, 'SessionRestorer', { Session: { Id: 'ses_1', Mode: 'Chat' } }),
  'AGN036.SESSION_RESTORER.PRE.TURN_NULL': pre(F, 'SessionRestorer', { Turn: {} }),
  'AGN036.SESSION_RESTORER.POST.SESSION_POPULATED': post(F, 'SessionRestorer', { Session: null }),
  'AGN036.SESSION_RESTORER.POST.TURN_POPULATED': post(F, 'SessionRestorer', { Turn: undefined }),
  'AGN036.SESSION_RESTORER.POST.TURN_ID_CHANGED': post(F, 'SessionRestorer', { 'Turn.Id': 'turn_01HZX2' }),
  'AGN036.SESSION_RESTORER.POST.SESSION_MODE': post(F, 'SessionRestorer', { 'Session.Mode': '' }),

  'AGN036.AGENT_CONTEXT_RESOLVER.PRE.SESSION_NULL': pre(I, 'AgentContextResolver', { Session: { Id: 'ses_1' } }),
  'AGN036.AGENT_CONTEXT_RESOLVER.PRE.TURN_NULL': pre(I, 'AgentContextResolver', { Turn: { Id: 'turn_1' } }),
  'AGN036.AGENT_CONTEXT_RESOLVER.POST.AGENT_CONTEXT_POPULATED': post(I, 'AgentContextResolver', { AgentContext: null }),
  'AGN036.AGENT_CONTEXT_RESOLVER.POST.CONVERSATION_CONTEXT_POPULATED': post(I, 'AgentContextResolver', { ConversationContext: undefined }),

  'AGN036.CLIENT_TOOL_CONTINUATION_RESOLVER.PRE.SESSION_POPULATED': pre(C, 'ClientToolContinuationResolver', { Session: null }),
  'AGN036.CLIENT_TOOL_CONTINUATION_RESOLVER.PRE.TURN_POPULATED': pre(C, 'ClientToolContinuationResolver', { Turn: null }),
  'AGN036.CLIENT_TOOL_CONTINUATION_RESOLVER.PRE.TOOL_RESULTS_PRESENT': pre(C, 'ClientToolContinuationResolver', {
    'Envelope.ToolResults': [],
  }),
  'AGN036.CLIENT_TOOL_CONTINUATION_RESOLVER.POST.MANIFEST_POPULATED': post(C, 'ClientToolContinuationResolver', { ToolCallManifest: null }),
  'AGN036.CLIENT_TOOL_CONTINUATION_RESOLVER.POST.TURN_ID_MATCHES': post(C, 'ClientToolContinuationResolver', { 'Turn.Id': 'turn_01HZX6' }),

  'AGN036.AGENT_SESSION_CREATOR.PRE.AGENT_CONTEXT_POPULATED': pre(I, 'AgentSessionCreator', { AgentContext: null }),
  'AGN036.AGENT_SESSION_CREATOR.PRE.CONVERSATION_CONTEXT_POPULATED': pre(I, 'AgentSessionCreator', { ConversationContext: null }),
  'AGN036.AGENT_SESSION_CREATOR.PRE.SESSION_NULL': pre(I, 'AgentSessionCreator', { Session: { Id: 'ses_1' } }),
  'AGN036.AGENT_SESSION_CREATOR.PRE.TURN_NULL': pre(I, 'AgentSessionCreator', { Turn: { Id: 'turn_1' } }),
  'AGN036.AGENT_SESSION_CREATOR.POST.SESSION_POPULATED': post(I, 'AgentSessionCreator', { Session: null }),
  'AGN036.AGENT_SESSION_CREATOR.POST.TURN_POPULATED': post(I, 'AgentSessionCreator', { Turn: null }),

  'AGN036.AGENT_CONTEXT_LOADER.PRE.SESSION_POPULATED': pre(F, 'AgentContextLoader', { Session: null }),
  'AGN036.AGENT_CONTEXT_LOADER.PRE.TURN_POPULATED': pre(F, 'AgentContextLoader', { Turn: null }),
  'AGN036.AGENT_CONTEXT_LOADER.POST.AGENT_CONTEXT_POPULATED': post(F, 'AgentContextLoader', { AgentContext: null }),
  'AGN036.AGENT_CONTEXT_LOADER.POST.CONVERSATION_CONTEXT_POPULATED': post(F, 'AgentContextLoader', { ConversationContext: null }),

  'AGN036.PROMPT_CONTENT_PROVIDER_INITIALIZER.PRE.SESSION_POPULATED': pre(C, 'PromptContentProviderInitializer', { Session: null }),
  'AGN036.PROMPT_CONTENT_PROVIDER_INITIALIZER.PRE.TURN_POPULATED': pre(C, 'PromptContentProviderInitializer', { Turn: null }),
  'AGN036.PROMPT_CONTENT_PROVIDER_INITIALIZER.PRE.AGENT_CONTEXT_POPULATED': pre(C, 'PromptContentProviderInitializer', {
    AgentContext: null,
  }),
  'AGN036.PROMPT_CONTENT_PROVIDER_INITIALIZER.PRE.CONVERSATION_CONTEXT_POPULATED': pre(C, 'PromptContentProviderInitializer', {
    ConversationContext: null,
  }),
  'AGN036.PROMPT_CONTENT_PROVIDER_INITIALIZER.PRE.MANIFEST_FOR_CONTINUATION': pre(C, 'PromptContentProviderInitializer', {
    ToolCallManifest: null,
  }),
  'AGN036.PROMPT_CONTENT_PROVIDER_INITIALIZER.POST.PROVIDER_READY': post(F, 'PromptContentProviderInitializer', {
    'PromptKnowledgeProvider.Ready': false,
  }),

  'AGN036.REASONER.PRE.PROVIDER_READY': pre(I, 'Reasoner', { PromptKnowledgeProvider: null }),

  'AGN036.LLM_CLIENT.PRE.RESPONSE_PAYLOAD_NULL': pre(F, 'LLMClient', { ResponsePayload: {} }),
  'AGN036.LLM_CLIENT.PRE.MANIFEST_FOR_CONTINUATION': pre(C, 'LLMClient', { ToolCallManifest: null }),
  'AGN036.LLM_CLIENT.POST.OUTCOME_MISSING': post(F, 'LLMClient', { ResponsePayload: null }),
  'AGN036.LLM_CLIENT.POST.OUTCOME_CONFLICT': post(I, 'LLMClient', { ResponsePayload: { Text: 'done' } }),
  'AGN036.LLM_CLIENT.POST.RESPONSE_TYPE_MATCHES': post(F, 'LLMClient', { ResponseType: 'ToolContinuation' }),

  'AGN036.RESPONSE_BUILDER.PRE.RESPONSE_TYPE': pre(F, 'ResponseBuilder', { ResponseType: null }),
  'AGN036.RESPONSE_BUILDER.POST.BEFORE_PRESENT': {
    pass: () => validatePostStep(exampleStep(F, 'ResponseBuilder').after, 'ResponseBuilder', exampleStep(F, 'ResponseBuilder').before),
    fail: () => validatePostStep(exampleStep(F, 'ResponseBuilder').after, 'ResponseBuilder'),
  },
  'AGN036.RESPONSE_BUILDER.POST.INVARIANTS_UNCHANGED': post(F, 'ResponseBuilder', { CorrelationId: 'another-correlation-id' }),
  'AGN036.RESPONSE_BUILDER.POST.RESPONSE_TYPE': post(F, 'ResponseBuilder', { ResponseType: 'Done' }, { ResponseType: 'Done' }),
  'AGN036.RESPONSE_BUILDER.POST.RESPONSE_MATCHES_TYPE': post(I, 'ResponseBuilder', { ClientToolCalls: [] }, { ClientToolCalls: [] }),

  'AGN036.MANIFEST.TOOL_CALL_ID_MISSING': manifest({ 'ToolCalls.1.ToolCallId': '' }),
  'AGN036.MANIFEST.NAME_MISSING': manifest({ 'ToolCallResults.0.Name': undefined }),
  'AGN036.MANIFEST.COUNT_MISMATCH': manifest({ ToolCallResults: exampleManifest().ToolCallResults.slice(0, 2) }),
  'AGN036.MANIFEST.ORDER_MISMATCH': manifest({ 'ToolCallResults.0.ToolCallId': 'call_01HZX4' }),
  'AGN036.MANIFEST.TOOL_CALL_ID_MISMATCH': manifest({ 'ToolCallResults.2.ToolCallId': 'call_unknown' }),
  'AGN036.MANIFEST.NAME_MISMATCH': manifest({ 'ToolCallResults.2.Name': 'run_test' }),
  'AGN036.MANIFEST.RESULT_JSON_MISSING': manifest({ 'ToolCallResults.1.ResultJson': undefined }),

  'AGN036.SHAPE.NOT_OBJECT': { pass: () => validateCore(created(I)), fail: () => validateCore([created(I)]) },
  'AGN036.SHAPE.INVALID_TYPE': core(I, { CorrelationId: 42 }),
  'AGN036.SHAPE.AMBIGUOUS_FIELD': {
    pass: () => validateCore(withField(created(I), 'correlationId', created(I).CorrelationId)),
    fail: () => validateCore(withField(created(I), 'correlationId', 'another-correlation-id')),
  },
  'AGN036.SHAPE.TOO_DEEP': {
    pass: () => validateCore(withFields(created(I), { 'Envelope.Org': nested(50), 'Envelope.org': nested(50) })),
    fail: () => validateCore(withFields(created(I), { 'Envelope.Org': nested(200), 'Envelope.org': nested(200) })),
  },
  'AGN036.SHAPE.UNKNOWN_STEP': {
    pass: () => validatePreStep(created(I), 'RequestHandler'),
    fail: () => validatePreStep(created(I), 'Planner' as PipelineStep),
  },
  'AGN036.SHAPE.ISSUES_TRUNCATED': {
    pass: () => validateToolCallManifest(manyResultsWithoutJson(1000)),
    fail: () => validateToolCallManifest(manyResultsWithoutJson(1001)),
  },
};

describe('PIPELINE_RULES', () => {
  const ids = [...PIPELINE_RULES, ...PIPELINE_SHAPE_RULES].map((rule) => rule.id);

  it('has unique, well-formed ids and a one-sentence description for each rule', () => {
    expect(new Set(ids).size).toBe(ids.length);
    for (const rule of [...PIPELINE_RULES, ...PIPELINE_SHAPE_RULES]) {
      expect(rule.id).toMatch(/^AGN036(\.[A-Z][A-Z_]*)+$/);
      expect(rule.checks).toMatch(/^\S.*\.$/);
    }
    for (const rule of PIPELINE_RULES) {
      const expected = { core: 'core', pre_step: 'pre', post_step: 'post', manifest: 'manifest' }[rule.entry];
      expect(rule.phase).toBe(expected);
      expect(rule.step === null).toBe(rule.entry === 'core' || rule.entry === 'manifest');
    }
  });

  it('plans every step rule under its own step and phase', () => {
    for (const step of PIPELINE_STEPS) {
      for (const phase of ['pre', 'post'] as const) {
        for (const id of PIPELINE_STEP_PLAN[step][phase].rules) {
          expect(PIPELINE_RULES.find((rule) => rule.id === id)).toMatchObject({ step, phase });
        }
      }
    }
  });

  it('has a case for every rule and no case for a rule that does not exist', () => {
    expect(Object.keys(CASES).sort()).toEqual([...ids].sort());
  });

  describe.each(ids)('%s', (id) => {
    const rule = [...PIPELINE_RULES, ...PIPELINE_SHAPE_RULES].find((candidate) => candidate.id === id);
    const warning = rule && 'severity' in rule && rule.severity === 'warning';

    it('passes its near-twin', () => {
      const result = CASES[id]?.pass();
      // The truncation warning needs a flood of errors to exist at all; its twin is one short.
      if (warning) return expect(warningCodes(result as PipelineValidationResult)).toEqual([]);
      expect(result?.errors).toEqual([]);
      expect(result?.warnings).toEqual([]);
      expect(result?.valid).toBe(true);
    });

    it('fails exactly this rule', () => {
      const result = CASES[id]?.fail();
      if (!result) throw new Error(`no case for ${id}`);
      if (warning) {
        expect(warningCodes(result)).toEqual([id]);
        return;
      }
      expect(codes(result)).toEqual([id]);
      expect(result.valid).toBe(false);
      const issue = result.errors[0];
      expect(issue?.message.length).toBeGreaterThan(10);
      expect(issue?.path).toMatch(/^\$/);
      if (rule && 'step' in rule && rule.step) expect(issue).toMatchObject({ step: rule.step, phase: rule.phase });
    });
  });
});
