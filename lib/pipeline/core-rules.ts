// DDR sections 3 and 3.1: what ValidateCore checks.
import { article, contextTypeOf, isPopulated, quote, type ContextRule } from './context-rule';
import type { NormalizedContext } from './normalize-context';
import { PIPELINE_CONTEXT_TYPES, type PipelineContextType } from './types';

type EnvelopeField = 'SessionId' | 'TurnId' | 'ToolResults';

function coreRule(id: string, checks: string, evaluate: ContextRule['evaluate']): ContextRule {
  return { id, entry: 'core', step: null, phase: 'core', checks, evaluate };
}

function requiredString(id: string, field: 'TimeStamp' | 'CorrelationId'): ContextRule {
  return coreRule(id, `${field} is a non-empty string.`, ({ ctx }, emit) => {
    if (!isPopulated(ctx[field])) emit({ message: `${field} must be non-empty`, path: `$.${field}` });
  });
}

function envelopeParty(id: string, field: 'Org' | 'User'): ContextRule {
  return coreRule(id, `Envelope.${field} is present (a non-empty id or an object).`, ({ ctx }, emit) => {
    if (!isPopulated(ctx.Envelope?.[field])) emit({ message: `Envelope.${field} must be present`, path: `$.Envelope.${field}` });
  });
}

// One id per (type, field) so a failure names the exact DDR bullet it breaks.
function envelopeByType(id: string, type: PipelineContextType, field: EnvelopeField, expect: 'empty' | 'present'): ContextRule {
  const wording = expect === 'empty' ? 'must be empty' : field === 'ToolResults' ? 'must contain one or more entries' : 'must be present';
  return coreRule(id, `For ${article(type)} ${type} context, Envelope.${field} ${wording}.`, ({ ctx }, emit) => {
    if (contextTypeOf(ctx) !== type) return;
    if (isPopulated(ctx.Envelope?.[field]) === (expect === 'present')) return;
    emit({ message: `Envelope.${field} ${wording} for ${article(type)} ${type} context`, path: `$.Envelope.${field}` });
  });
}

const INPUT_FIELDS = ['Instructions', 'InputArtifacts', 'ClipBoardImages'] as const;

function hasInput(ctx: NormalizedContext): boolean {
  return INPUT_FIELDS.some((field) => isPopulated(ctx.Envelope?.[field]));
}

export const CORE_RULES: readonly ContextRule[] = [
  coreRule('AGN036.CORE.TYPE', `Type is one of ${PIPELINE_CONTEXT_TYPES.join(', ')}.`, ({ ctx }, emit) => {
    if (contextTypeOf(ctx)) return;
    const got = ctx.Type === undefined ? 'it is missing' : `got ${quote(ctx.Type)}`;
    emit({ message: `Type must be one of ${PIPELINE_CONTEXT_TYPES.join(', ')}; ${got}`, path: '$.Type' });
  }),
  requiredString('AGN036.CORE.TIMESTAMP', 'TimeStamp'),
  requiredString('AGN036.CORE.CORRELATION_ID', 'CorrelationId'),
  envelopeParty('AGN036.CORE.ENVELOPE_ORG', 'Org'),
  envelopeParty('AGN036.CORE.ENVELOPE_USER', 'User'),
  coreRule(
    'AGN036.ENVELOPE.INPUT_REQUIRED',
    'For an Initial or FollowOn context, at least one of Envelope.Instructions, Envelope.InputArtifacts or Envelope.ClipBoardImages is provided.',
    ({ ctx }, emit) => {
      const type = contextTypeOf(ctx);
      if ((type !== 'Initial' && type !== 'FollowOn') || hasInput(ctx)) return;
      emit({
        message: `At least one of Envelope.Instructions, Envelope.InputArtifacts or Envelope.ClipBoardImages must be provided for ${article(type)} ${type} context`,
        path: '$.Envelope',
        details: { any_of: INPUT_FIELDS.map((field) => `Envelope.${field}`) },
      });
    },
  ),
  envelopeByType('AGN036.ENVELOPE.INITIAL.SESSION_ID_EMPTY', 'Initial', 'SessionId', 'empty'),
  envelopeByType('AGN036.ENVELOPE.INITIAL.TURN_ID_EMPTY', 'Initial', 'TurnId', 'empty'),
  envelopeByType('AGN036.ENVELOPE.INITIAL.TOOL_RESULTS_EMPTY', 'Initial', 'ToolResults', 'empty'),
  envelopeByType('AGN036.ENVELOPE.FOLLOW_ON.SESSION_ID_PRESENT', 'FollowOn', 'SessionId', 'present'),
  envelopeByType('AGN036.ENVELOPE.FOLLOW_ON.TURN_ID_PRESENT', 'FollowOn', 'TurnId', 'present'),
  envelopeByType('AGN036.ENVELOPE.FOLLOW_ON.TOOL_RESULTS_EMPTY', 'FollowOn', 'ToolResults', 'empty'),
  envelopeByType('AGN036.ENVELOPE.CONTINUATION.SESSION_ID_PRESENT', 'ClientToolCallContinuation', 'SessionId', 'present'),
  envelopeByType('AGN036.ENVELOPE.CONTINUATION.TURN_ID_PRESENT', 'ClientToolCallContinuation', 'TurnId', 'present'),
  envelopeByType('AGN036.ENVELOPE.CONTINUATION.TOOL_RESULTS_PRESENT', 'ClientToolCallContinuation', 'ToolResults', 'present'),
];
