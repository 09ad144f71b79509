// DDR sections 4.1-4.10: the PRE and POST rules of each step. Rules that the DDR repeats across
// steps get one id per step, so a failure says which step's contract was broken. Where a step
// says "ValidateCore must succeed" or "validate ToolCallManifest", rules.ts runs those rule
// sets; they are not repeated here.
import { canonicalFieldPath, compareJson, MAX_COMPARE_DEPTH } from './normalize-context';
import { contextTypeOf, hasText, isPopulated, quote, responseTypeOf, type ContextRule } from './context-rule';
import { SHAPE_RULE } from './shape-rules';
import { RESPONSE_TYPES, type PipelineStep } from './types';
import { isJsonObject } from '../json';

type Phase = 'pre' | 'post';
type ObjectField = 'Session' | 'Turn' | 'AgentContext' | 'ConversationContext' | 'ToolCallManifest' | 'ResponsePayload';

/**
 * What ResponseBuilder must leave as it found it (DDR 4.10, "Context invariants unchanged").
 * The core invariants of DDR 3 and the whole envelope, the identity of the session and turn,
 * and the LLMClient outcome the response is built from. Left out on purpose: AgentContext,
 * ConversationContext, ToolCallManifest, PromptKnowledgeProvider and the other Session/Turn
 * fields, which are earlier steps' working state (a turn's status may legitimately move on)
 * and can be large.
 */
export const RESPONSE_BUILDER_INVARIANT_FIELDS = [
  'Type',
  'TimeStamp',
  'CorrelationId',
  'Envelope.Org',
  'Envelope.User',
  'Envelope.SessionId',
  'Envelope.TurnId',
  'Envelope.Instructions',
  'Envelope.InputArtifacts',
  'Envelope.ClipBoardImages',
  'Envelope.ToolResults',
  'Session.Id',
  'Session.Mode',
  'Turn.Id',
  'ResponseType',
  'ResponsePayload',
  'ClientToolCalls',
] as const;

function stepRule(id: string, step: PipelineStep, phase: Phase, checks: string, evaluate: ContextRule['evaluate']): ContextRule {
  return { id, entry: phase === 'pre' ? 'pre_step' : 'post_step', step, phase, checks, evaluate };
}

const when = (phase: Phase, step: PipelineStep) => (phase === 'pre' ? `before ${step}` : `after ${step}`);

function envelopePresent(id: string, step: PipelineStep, field: 'SessionId' | 'TurnId' | 'ToolResults'): ContextRule {
  const wording = field === 'ToolResults' ? 'contains one or more entries' : 'is present';
  return stepRule(id, step, 'pre', `Envelope.${field} ${wording}.`, ({ ctx }, emit) => {
    if (isPopulated(ctx.Envelope?.[field])) return;
    const must = field === 'ToolResults' ? 'must contain one or more entries' : 'must be present';
    emit({ message: `Envelope.${field} ${must} ${when('pre', step)}`, path: `$.Envelope.${field}` });
  });
}

function isNull(id: string, step: PipelineStep, phase: Phase, field: ObjectField): ContextRule {
  return stepRule(id, step, phase, `${field} is null (not yet populated).`, ({ ctx }, emit) => {
    if (isPopulated(ctx[field])) emit({ message: `${field} must be null ${when(phase, step)}`, path: `$.${field}` });
  });
}

function populated(id: string, step: PipelineStep, phase: Phase, field: ObjectField): ContextRule {
  return stepRule(id, step, phase, `${field} is populated (a non-null object).`, ({ ctx }, emit) => {
    if (!isPopulated(ctx[field])) emit({ message: `${field} must be populated ${when(phase, step)}`, path: `$.${field}` });
  });
}

function manifestForContinuation(id: string, step: PipelineStep): ContextRule {
  return stepRule(id, step, 'pre', 'For a ClientToolCallContinuation context, ToolCallManifest is non-null.', ({ ctx }, emit) => {
    if (contextTypeOf(ctx) !== 'ClientToolCallContinuation' || isPopulated(ctx.ToolCallManifest)) return;
    emit({
      message: `ToolCallManifest must be non-null for a ClientToolCallContinuation context ${when('pre', step)}`,
      path: '$.ToolCallManifest',
    });
  });
}

function providerReady(id: string, step: PipelineStep, phase: Phase): ContextRule {
  return stepRule(id, step, phase, 'PromptKnowledgeProvider.Ready is true.', ({ ctx }, emit) => {
    if (ctx.PromptKnowledgeProvider?.Ready === true) return;
    emit({ message: `PromptKnowledgeProvider.Ready must be true ${when(phase, step)}`, path: '$.PromptKnowledgeProvider.Ready' });
  });
}

function responseTypeValid(id: string, phase: Phase, checks: string): ContextRule {
  return stepRule(id, 'ResponseBuilder', phase, checks, ({ ctx }, emit) => {
    if (responseTypeOf(ctx)) return;
    const got = ctx.ResponseType === undefined ? 'it is missing' : `got ${quote(ctx.ResponseType)}`;
    emit({
      message: `ResponseType must be one of ${RESPONSE_TYPES.join(', ')} ${when(phase, 'ResponseBuilder')}; ${got}`,
      path: '$.ResponseType',
    });
  });
}

const turnIdChanged = (id: string) =>
  stepRule(
    id,
    'SessionRestorer',
    'post',
    'Turn.Id is non-empty and differs from Envelope.TurnId (the restored session gets a new turn); not checked while Turn is null.',
    ({ ctx }, emit) => {
      if (!isPopulated(ctx.Turn)) return;
      const turnId = ctx.Turn?.Id;
      const envelopeTurnId = ctx.Envelope?.TurnId ?? null;
      const details = { turn_id: turnId ?? null, envelope_turn_id: envelopeTurnId };
      if (!hasText(turnId)) {
        emit({
          message: 'Turn.Id must be a new, non-empty turn id after SessionRestorer',
          path: '$.Turn.Id',
          details: { ...details, reason: 'turn_id_empty' },
        });
      } else if (turnId === envelopeTurnId) {
        emit({
          message: 'Turn.Id must differ from Envelope.TurnId after SessionRestorer',
          path: '$.Turn.Id',
          details: { ...details, reason: 'turn_id_unchanged' },
        });
      }
    },
  );

const sessionMode = (id: string) =>
  stepRule(
    id,
    'SessionRestorer',
    'post',
    'Session.Mode has a value (a non-empty string); not checked while Session is null.',
    ({ ctx }, emit) => {
      if (isPopulated(ctx.Session) && !hasText(ctx.Session?.Mode)) {
        emit({ message: 'Session.Mode must have a value after SessionRestorer', path: '$.Session.Mode' });
      }
    },
  );

const turnIdMatches = (id: string) =>
  stepRule(
    id,
    'ClientToolContinuationResolver',
    'post',
    'Turn.Id is non-empty and equals Envelope.TurnId (a continuation stays in the turn that asked for the tools).',
    ({ ctx }, emit) => {
      const turnId = ctx.Turn?.Id;
      const envelopeTurnId = ctx.Envelope?.TurnId;
      if (hasText(turnId) && turnId === envelopeTurnId) return;
      emit({
        message: 'Turn.Id must equal Envelope.TurnId after ClientToolContinuationResolver',
        path: '$.Turn.Id',
        details: { turn_id: turnId ?? null, envelope_turn_id: envelopeTurnId ?? null },
      });
    },
  );

const outcomeMissing = (id: string) =>
  stepRule(
    id,
    'LLMClient',
    'post',
    'At least one outcome: ResponsePayload is populated (Final) or ClientToolCalls has entries (ToolContinuation).',
    ({ ctx }, emit) => {
      if (isPopulated(ctx.ResponsePayload) || isPopulated(ctx.ClientToolCalls)) return;
      emit({
        message: 'LLMClient must produce an outcome: ResponsePayload (Final) or ClientToolCalls (ToolContinuation); both are empty',
        path: '$',
      });
    },
  );

const outcomeConflict = (id: string) =>
  stepRule(id, 'LLMClient', 'post', 'At most one outcome: ResponsePayload and ClientToolCalls are not both populated.', ({ ctx }, emit) => {
    if (!isPopulated(ctx.ResponsePayload) || !isPopulated(ctx.ClientToolCalls)) return;
    emit({
      message:
        'LLMClient must produce exactly one outcome: ResponsePayload (Final) and ClientToolCalls (ToolContinuation) are both populated',
      path: '$',
    });
  });

const responseTypeMatchesOutcome = (id: string) =>
  stepRule(
    id,
    'LLMClient',
    'post',
    'If ResponseType is set, it names the single outcome produced (Final for ResponsePayload, ToolContinuation for ClientToolCalls).',
    ({ ctx }, emit) => {
      if (ctx.ResponseType === undefined) return;
      const payload = isPopulated(ctx.ResponsePayload);
      // With no outcome or two, the outcome rules have already said what is wrong.
      if (payload === isPopulated(ctx.ClientToolCalls)) return;
      const expected = payload ? 'Final' : 'ToolContinuation';
      if (ctx.ResponseType === expected) return;
      emit({
        message: `ResponseType must be ${expected} for the outcome LLMClient produced; got ${quote(ctx.ResponseType)}`,
        path: '$.ResponseType',
        details: { expected },
      });
    },
  );

const beforePresent = (id: string) =>
  stepRule(
    id,
    'ResponseBuilder',
    'post',
    'The PRE snapshot is passed as `before` (an object), without which invariants cannot be compared.',
    ({ before }, emit) => {
      if (isJsonObject(before)) return;
      emit({
        message:
          "validatePostStep(ctx, 'ResponseBuilder', before) needs the context as it was before ResponseBuilder, as an object, to check that invariants are unchanged",
        path: '$',
        details: { before: before === undefined ? 'missing' : 'not_an_object' },
      });
    },
  );

const invariantsUnchanged = (id: string) =>
  stepRule(
    id,
    'ResponseBuilder',
    'post',
    `Context invariants are unchanged between \`before\` and the context (PRE == POST): ${RESPONSE_BUILDER_INVARIANT_FIELDS.join(', ')}.`,
    ({ before, raw }, emit) => {
      if (!isJsonObject(before)) return;
      for (const field of RESPONSE_BUILDER_INVARIANT_FIELDS) {
        // A step that drops a null field has not changed it.
        const comparison = compareJson(canonicalFieldPath(before, field) ?? null, canonicalFieldPath(raw, field) ?? null);
        if (comparison === 'different') {
          emit({ message: `${field} must not change during ResponseBuilder (PRE != POST)`, path: `$.${field}`, details: { field } });
        } else if (comparison === 'too_deep') {
          const message = `${field} nests too deeply to compare PRE and POST (limit ${MAX_COMPARE_DEPTH} levels)`;
          emit({ message, path: `$.${field}`, details: { field, limit: MAX_COMPARE_DEPTH } }, SHAPE_RULE.TOO_DEEP.id);
        }
      }
    },
  );

const responseMatchesType = (id: string) =>
  stepRule(
    id,
    'ResponseBuilder',
    'post',
    'Part of "conforms to AGN-033": a Final response has a ResponsePayload and no ClientToolCalls, a ToolContinuation has ClientToolCalls and no ResponsePayload (the full AGN-033 schema is not checked).',
    ({ ctx }, emit) => {
      const type = responseTypeOf(ctx);
      if (!type) return;
      const payload = isPopulated(ctx.ResponsePayload);
      const calls = isPopulated(ctx.ClientToolCalls);
      const problems: [failed: boolean, path: string, message: string, reason: string][] =
        type === 'Final'
          ? [
              [!payload, '$.ResponsePayload', 'a Final response must have a ResponsePayload', 'payload_missing'],
              [calls, '$.ClientToolCalls', 'a Final response must not have ClientToolCalls', 'client_tool_calls_present'],
            ]
          : [
              [!calls, '$.ClientToolCalls', 'a ToolContinuation response must have ClientToolCalls', 'client_tool_calls_missing'],
              [payload, '$.ResponsePayload', 'a ToolContinuation response must not have a ResponsePayload', 'payload_present'],
            ];
      for (const [failed, path, message, reason] of problems) {
        if (failed) emit({ message: `${message} after ResponseBuilder`, path, details: { response_type: type, reason } });
      }
    },
  );

const SR = 'SessionRestorer';
const ACR = 'AgentContextResolver';
const CTCR = 'ClientToolContinuationResolver';
const ASC = 'AgentSessionCreator';
const ACL = 'AgentContextLoader';
const PCPI = 'PromptContentProviderInitializer';

export const STEP_RULES: Record<PipelineStep, { pre: readonly ContextRule[]; post: readonly ContextRule[] }> = {
  RequestHandler: { pre: [], post: [] },
  SessionRestorer: {
    pre: [
      envelopePresent('AGN036.SESSION_RESTORER.PRE.SESSION_ID_PRESENT', SR, 'SessionId'),
      envelopePresent('AGN036.SESSION_RESTORER.PRE.TURN_ID_PRESENT', SR, 'TurnId'),
      isNull('AGN036.SESSION_RESTORER.PRE.SESSION_NULL', SR, 'pre', 'Session'),
      isNull('AGN036.SESSION_RESTORER.PRE.TURN_NULL', SR, 'pre', 'Turn'),
    ],
    post: [
      populated('AGN036.SESSION_RESTORER.POST.SESSION_POPULATED', SR, 'post', 'Session'),
      populated('AGN036.SESSION_RESTORER.POST.TURN_POPULATED', SR, 'post', 'Turn'),
      turnIdChanged('AGN036.SESSION_RESTORER.POST.TURN_ID_CHANGED'),
      sessionMode('AGN036.SESSION_RESTORER.POST.SESSION_MODE'),
    ],
  },
  AgentContextResolver: {
    pre: [
      isNull('AGN036.AGENT_CONTEXT_RESOLVER.PRE.SESSION_NULL', ACR, 'pre', 'Session'),
      isNull('AGN036.AGENT_CONTEXT_RESOLVER.PRE.TURN_NULL', ACR, 'pre', 'Turn'),
    ],
    post: [
      populated('AGN036.AGENT_CONTEXT_RESOLVER.POST.AGENT_CONTEXT_POPULATED', ACR, 'post', 'AgentContext'),
      populated('AGN036.AGENT_CONTEXT_RESOLVER.POST.CONVERSATION_CONTEXT_POPULATED', ACR, 'post', 'ConversationContext'),
    ],
  },
  ClientToolContinuationResolver: {
    pre: [
      populated('AGN036.CLIENT_TOOL_CONTINUATION_RESOLVER.PRE.SESSION_POPULATED', CTCR, 'pre', 'Session'),
      populated('AGN036.CLIENT_TOOL_CONTINUATION_RESOLVER.PRE.TURN_POPULATED', CTCR, 'pre', 'Turn'),
      envelopePresent('AGN036.CLIENT_TOOL_CONTINUATION_RESOLVER.PRE.TOOL_RESULTS_PRESENT', CTCR, 'ToolResults'),
    ],
    post: [
      populated('AGN036.CLIENT_TOOL_CONTINUATION_RESOLVER.POST.MANIFEST_POPULATED', CTCR, 'post', 'ToolCallManifest'),
      turnIdMatches('AGN036.CLIENT_TOOL_CONTINUATION_RESOLVER.POST.TURN_ID_MATCHES'),
    ],
  },
  AgentSessionCreator: {
    pre: [
      populated('AGN036.AGENT_SESSION_CREATOR.PRE.AGENT_CONTEXT_POPULATED', ASC, 'pre', 'AgentContext'),
      populated('AGN036.AGENT_SESSION_CREATOR.PRE.CONVERSATION_CONTEXT_POPULATED', ASC, 'pre', 'ConversationContext'),
      isNull('AGN036.AGENT_SESSION_CREATOR.PRE.SESSION_NULL', ASC, 'pre', 'Session'),
      isNull('AGN036.AGENT_SESSION_CREATOR.PRE.TURN_NULL', ASC, 'pre', 'Turn'),
    ],
    post: [
      populated('AGN036.AGENT_SESSION_CREATOR.POST.SESSION_POPULATED', ASC, 'post', 'Session'),
      populated('AGN036.AGENT_SESSION_CREATOR.POST.TURN_POPULATED', ASC, 'post', 'Turn'),
    ],
  },
  AgentContextLoader: {
    pre: [
      populated('AGN036.AGENT_CONTEXT_LOADER.PRE.SESSION_POPULATED', ACL, 'pre', 'Session'),
      populated('AGN036.AGENT_CONTEXT_LOADER.PRE.TURN_POPULATED', ACL, 'pre', 'Turn'),
    ],
    post: [
      populated('AGN036.AGENT_CONTEXT_LOADER.POST.AGENT_CONTEXT_POPULATED', ACL, 'post', 'AgentContext'),
      populated('AGN036.AGENT_CONTEXT_LOADER.POST.CONVERSATION_CONTEXT_POPULATED', ACL, 'post', 'ConversationContext'),
    ],
  },
  PromptContentProviderInitializer: {
    pre: [
      populated('AGN036.PROMPT_CONTENT_PROVIDER_INITIALIZER.PRE.SESSION_POPULATED', PCPI, 'pre', 'Session'),
      populated('AGN036.PROMPT_CONTENT_PROVIDER_INITIALIZER.PRE.TURN_POPULATED', PCPI, 'pre', 'Turn'),
      populated('AGN036.PROMPT_CONTENT_PROVIDER_INITIALIZER.PRE.AGENT_CONTEXT_POPULATED', PCPI, 'pre', 'AgentContext'),
      populated('AGN036.PROMPT_CONTENT_PROVIDER_INITIALIZER.PRE.CONVERSATION_CONTEXT_POPULATED', PCPI, 'pre', 'ConversationContext'),
      manifestForContinuation('AGN036.PROMPT_CONTENT_PROVIDER_INITIALIZER.PRE.MANIFEST_FOR_CONTINUATION', PCPI),
    ],
    post: [providerReady('AGN036.PROMPT_CONTENT_PROVIDER_INITIALIZER.POST.PROVIDER_READY', PCPI, 'post')],
  },
  Reasoner: {
    pre: [providerReady('AGN036.REASONER.PRE.PROVIDER_READY', 'Reasoner', 'pre')],
    post: [],
  },
  LLMClient: {
    pre: [
      isNull('AGN036.LLM_CLIENT.PRE.RESPONSE_PAYLOAD_NULL', 'LLMClient', 'pre', 'ResponsePayload'),
      manifestForContinuation('AGN036.LLM_CLIENT.PRE.MANIFEST_FOR_CONTINUATION', 'LLMClient'),
    ],
    post: [
      outcomeMissing('AGN036.LLM_CLIENT.POST.OUTCOME_MISSING'),
      outcomeConflict('AGN036.LLM_CLIENT.POST.OUTCOME_CONFLICT'),
      responseTypeMatchesOutcome('AGN036.LLM_CLIENT.POST.RESPONSE_TYPE_MATCHES'),
    ],
  },
  ResponseBuilder: {
    pre: [responseTypeValid('AGN036.RESPONSE_BUILDER.PRE.RESPONSE_TYPE', 'pre', `ResponseType is one of ${RESPONSE_TYPES.join(', ')}.`)],
    post: [
      beforePresent('AGN036.RESPONSE_BUILDER.POST.BEFORE_PRESENT'),
      invariantsUnchanged('AGN036.RESPONSE_BUILDER.POST.INVARIANTS_UNCHANGED'),
      responseTypeValid(
        'AGN036.RESPONSE_BUILDER.POST.RESPONSE_TYPE',
        'post',
        'Part of "conforms to AGN-033": ResponseType is Final or ToolContinuation. The full AGN-033 response schema is not available here and is not checked.',
      ),
      responseMatchesType('AGN036.RESPONSE_BUILDER.POST.RESPONSE_MATCHES_TYPE'),
    ],
  },
};
