import { describe, expect, it } from 'vitest';
import { TOOL_CALL_MANIFEST_FIELDS } from './context-fields';
import { exampleManifest, exampleRun, exampleStep } from './examples';
import { codes, deepFreeze, everyEntryPoint, expectWellFormed, toCamelCase, withField, withFields } from './test-helpers';
import { PIPELINE_CONTEXT_TYPES } from './types';
import { validateCore, validatePostStep, validatePreStep, validateToolCallManifest } from './validate-pipeline';

describe('example runs', () => {
  it.each(PIPELINE_CONTEXT_TYPES)('a %s run passes core, PRE and POST of every step it goes through', (type) => {
    for (const { step, before, after } of exampleRun(type)) {
      expect({ step, errors: validatePreStep(before, step).errors }).toEqual({ step, errors: [] });
      expect({ step, errors: validatePostStep(after, step, before).errors }).toEqual({ step, errors: [] });
      expect(validateCore(after).errors).toEqual([]);
    }
  });

  it('a valid manifest passes', () => {
    expect(validateToolCallManifest(exampleManifest())).toEqual({ valid: true, errors: [], warnings: [] });
  });
});

describe('spellings', () => {
  it.each(PIPELINE_CONTEXT_TYPES)('camelCase %s snapshots give the same results as PascalCase ones', (type) => {
    for (const { step, before, after } of exampleRun(type)) {
      expect(validatePreStep(toCamelCase(before), step)).toEqual(validatePreStep(before, step));
      expect(validatePostStep(toCamelCase(after), step, toCamelCase(before))).toEqual(validatePostStep(after, step, before));
      // PRE in one spelling, POST in the other, is still "unchanged".
      expect(validatePostStep(after, step, toCamelCase(before)).errors).toEqual([]);
    }
    expect(validateToolCallManifest(toCamelCase(exampleManifest(), TOOL_CALL_MANIFEST_FIELDS)).errors).toEqual([]);
  });

  it('reports camelCase input with PascalCase paths and field names', () => {
    const ctx = toCamelCase(withField(exampleStep('FollowOn', 'RequestHandler').after, 'Envelope.SessionId', null));
    expect(validateCore(ctx).errors).toEqual([
      expect.objectContaining({
        code: 'AGN036.ENVELOPE.FOLLOW_ON.SESSION_ID_PRESENT',
        path: '$.Envelope.SessionId',
        message: 'Envelope.SessionId must be present for a FollowOn context',
      }),
    ]);
  });

  it('accepts a mix of spellings, and both spellings when they agree', () => {
    const { before, after } = exampleStep('ClientToolCallContinuation', 'ClientToolContinuationResolver');
    const mixed = withFields(after, {
      toolCallManifest: toCamelCase(after.ToolCallManifest, TOOL_CALL_MANIFEST_FIELDS),
      ToolCallManifest: undefined,
      envelope: { ...after.Envelope, sessionId: after.Envelope.SessionId },
      Envelope: undefined,
      correlationId: after.CorrelationId,
    });
    expect(validatePostStep(mixed, 'ClientToolContinuationResolver', before).errors).toEqual([]);
  });

  it('judges the PascalCase value when the spellings disagree', () => {
    const ctx = withField(exampleStep('Initial', 'RequestHandler').after, 'Envelope.sessionId', 'ses_from_camel');
    expect(codes(validateCore(ctx))).toEqual(['AGN036.SHAPE.AMBIGUOUS_FIELD']);
    expect(validateCore(ctx).errors[0]).toMatchObject({
      path: '$.Envelope.SessionId',
      details: { field: 'SessionId', alias: 'sessionId' },
    });
  });
});

describe('non-mutation', () => {
  it('leaves deep-frozen inputs deep-equal to copies taken before, at every entry point', () => {
    const inputs = [
      ...PIPELINE_CONTEXT_TYPES.flatMap((type) => exampleRun(type).flatMap(({ before, after }) => [before, after])),
      toCamelCase(exampleStep('ClientToolCallContinuation', 'LLMClient').after),
      withFields(exampleStep('Initial', 'LLMClient').after, { CorrelationId: 7, correlationId: 'x', 'Envelope.Org': null }),
      exampleManifest(),
    ];
    for (const input of inputs) {
      const copy = structuredClone(input);
      const before = deepFreeze(structuredClone(input));
      deepFreeze(input);
      for (const result of everyEntryPoint(input, before)) expectWellFormed(result);
      expect(input).toEqual(copy);
      expect(before).toEqual(copy);
    }
  });

  it('returns fresh result objects, not shared ones', () => {
    const ctx = exampleStep('Initial', 'RequestHandler').after;
    const first = validateCore(ctx);
    first.errors.push({ code: 'X', severity: 'error', message: 'x', path: '$', step: null, phase: 'core' });
    expect(validateCore(ctx).errors).toEqual([]);
  });
});

describe('rule sets run inside steps', () => {
  it('RequestHandler POST and Reasoner PRE run the core rules under their own step and phase', () => {
    const broken = withField(exampleStep('Initial', 'Reasoner').before, 'CorrelationId', '');
    expect(validatePostStep(broken, 'RequestHandler').errors).toEqual([
      expect.objectContaining({ code: 'AGN036.CORE.CORRELATION_ID', step: 'RequestHandler', phase: 'post', path: '$.CorrelationId' }),
    ]);
    expect(validatePreStep(broken, 'Reasoner').errors).toEqual([
      expect.objectContaining({ code: 'AGN036.CORE.CORRELATION_ID', step: 'Reasoner', phase: 'pre' }),
    ]);
    // Steps whose rules do not mention the core leave it to the steps that do.
    expect(validatePreStep(broken, 'LLMClient').errors).toEqual([]);
    expect(validatePreStep(broken, 'RequestHandler').errors).toEqual([]);
  });

  it('ClientToolContinuationResolver POST runs the manifest rules with paths inside the context', () => {
    const { before, after } = exampleStep('ClientToolCallContinuation', 'ClientToolContinuationResolver');
    const broken = withField(after, 'ToolCallManifest.ToolCallResults.1.Name', 'grep');
    expect(validatePostStep(broken, 'ClientToolContinuationResolver', before).errors).toEqual([
      expect.objectContaining({
        code: 'AGN036.MANIFEST.NAME_MISMATCH',
        step: 'ClientToolContinuationResolver',
        phase: 'post',
        path: '$.ToolCallManifest.ToolCallResults[1].Name',
      }),
    ]);
  });

  it('LLMClient PRE validates the manifest of a continuation only', () => {
    const continuation = withField(
      exampleStep('ClientToolCallContinuation', 'LLMClient').before,
      'ToolCallManifest.ToolCallResults.0.ResultJson',
      null,
    );
    expect(codes(validatePreStep(continuation, 'LLMClient'))).toEqual(['AGN036.MANIFEST.RESULT_JSON_MISSING']);
    const followOn = withField(exampleStep('FollowOn', 'LLMClient').before, 'ToolCallManifest', continuation.ToolCallManifest);
    expect(validatePreStep(followOn, 'LLMClient').errors).toEqual([]);
  });

  it('ResponseBuilder POST names each invariant that changed, in either spelling', () => {
    const { before, after } = exampleStep('FollowOn', 'ResponseBuilder');
    const changed = withFields(after, {
      'Envelope.Org': { Id: 'org_other' },
      'Turn.Id': 'turn_other',
      'Turn.Status': 'Closed',
      AgentContext: { Id: 'x' },
    });
    const errors = validatePostStep(changed, 'ResponseBuilder', toCamelCase(before)).errors;
    expect(errors.map(({ code, path }) => [code, path])).toEqual([
      ['AGN036.RESPONSE_BUILDER.POST.INVARIANTS_UNCHANGED', '$.Envelope.Org'],
      ['AGN036.RESPONSE_BUILDER.POST.INVARIANTS_UNCHANGED', '$.Turn.Id'],
    ]);
    // Dropping a null field is not a change.
    const initial = exampleStep('Initial', 'ResponseBuilder');
    expect(initial.before.ResponsePayload).toBeNull();
    expect(validatePostStep(withField(initial.after, 'ResponsePayload', undefined), 'ResponseBuilder', initial.before).errors).toEqual([]);
    // Opaque values are compared as they are: respelling their keys is a change.
    expect(
      codes(validatePostStep(after, 'ResponseBuilder', withField(before, 'Envelope.Org', { id: 'org_7Q2M', text: 'Acme Logistics' }))),
    ).toEqual(['AGN036.RESPONSE_BUILDER.POST.INVARIANTS_UNCHANGED']);
  });

  it('ResponseBuilder POST says when `before` is not an object', () => {
    const { after } = exampleStep('FollowOn', 'ResponseBuilder');
    expect(validatePostStep(after, 'ResponseBuilder', 'yesterday').errors).toEqual([
      expect.objectContaining({ code: 'AGN036.RESPONSE_BUILDER.POST.BEFORE_PRESENT', details: { before: 'not_an_object' } }),
    ]);
  });
});
