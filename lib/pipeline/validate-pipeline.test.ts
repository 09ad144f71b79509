import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { TOOL_CALL_MANIFEST_FIELDS } from './context-fields';
import { exampleManifest, exampleRun, exampleStep } from './examples';
import { MAX_ISSUES } from './issue-sink';
import { codes, deepFreeze, nested, toCamelCase, withField, withFields } from './test-helpers';
import { PIPELINE_CONTEXT_TYPES, PIPELINE_STEPS, type PipelineStep, type PipelineValidationResult } from './types';
import { validateCore, validatePostStep, validatePreStep, validateToolCallManifest } from './validate-pipeline';

/** Every entry point on one context: core, PRE and POST of all ten steps, and its manifest. */
function everyEntryPoint(ctx: unknown, before: unknown = ctx): PipelineValidationResult[] {
  const manifest = typeof ctx === 'object' && ctx !== null ? (ctx as Record<string, unknown>).ToolCallManifest : ctx;
  return [
    validateCore(ctx),
    ...PIPELINE_STEPS.flatMap((step) => [validatePreStep(ctx, step), validatePostStep(ctx, step, before)]),
    validateToolCallManifest(manifest),
    validateToolCallManifest(ctx),
  ];
}

const isWellFormed = (result: PipelineValidationResult) =>
  result.valid === (result.errors.length === 0) &&
  [...result.errors, ...result.warnings].every(
    (issue) => issue.code.startsWith('AGN036.') && issue.path.startsWith('$') && typeof issue.message === 'string' && issue.message !== '',
  );

const expectWellFormed = (result: PipelineValidationResult) => expect(isWellFormed(result), JSON.stringify(result).slice(0, 2000)).toBe(true);

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
    expect(validateCore(ctx).errors[0]).toMatchObject({ path: '$.Envelope.SessionId', details: { field: 'SessionId', alias: 'sessionId' } });
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
    const continuation = withField(exampleStep('ClientToolCallContinuation', 'LLMClient').before, 'ToolCallManifest.ToolCallResults.0.ResultJson', null);
    expect(codes(validatePreStep(continuation, 'LLMClient'))).toEqual(['AGN036.MANIFEST.RESULT_JSON_MISSING']);
    const followOn = withField(exampleStep('FollowOn', 'LLMClient').before, 'ToolCallManifest', continuation.ToolCallManifest);
    expect(validatePreStep(followOn, 'LLMClient').errors).toEqual([]);
  });

  it('ResponseBuilder POST names each invariant that changed, in either spelling', () => {
    const { before, after } = exampleStep('FollowOn', 'ResponseBuilder');
    const changed = withFields(after, { 'Envelope.Org': { Id: 'org_other' }, 'Turn.Id': 'turn_other', 'Turn.Status': 'Closed', AgentContext: { Id: 'x' } });
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
    expect(codes(validatePostStep(after, 'ResponseBuilder', withField(before, 'Envelope.Org', { id: 'org_7Q2M', text: 'Acme Logistics' })))).toEqual([
      'AGN036.RESPONSE_BUILDER.POST.INVARIANTS_UNCHANGED',
    ]);
  });

  it('ResponseBuilder POST says when `before` is not an object', () => {
    const { after } = exampleStep('FollowOn', 'ResponseBuilder');
    expect(validatePostStep(after, 'ResponseBuilder', 'yesterday').errors).toEqual([
      expect.objectContaining({ code: 'AGN036.RESPONSE_BUILDER.POST.BEFORE_PRESENT', details: { before: 'not_an_object' } }),
    ]);
  });
});

describe('validateToolCallManifest', () => {
  it('reports every failing pair with tool call id, name, index and reason', () => {
    const manifest = {
      ToolCalls: [
        { ToolCallId: 'call_a', Name: 'read_file' },
        { ToolCallId: 'call_b', Name: 'search_code' },
        { ToolCallId: 'call_c', Name: 'run_tests' },
        { ToolCallId: 'call_d', Name: 'open_pr' },
        { ToolCallId: 'call_e', Name: 'lint' },
      ],
      ToolCallResults: [
        { ToolCallId: 'call_a', Name: 'read_files', ResultJson: '{}' },
        { ToolCallId: 'call_x', Name: 'search_code', ResultJson: '{}' },
        { ToolCallId: 'call_c', Name: 'run_tests' },
        { ToolCallId: 'call_e', Name: 'lint', ResultJson: '{}' },
      ],
    };
    const result = validateToolCallManifest(manifest);
    expect(result.valid).toBe(false);
    expect(result.errors.map((issue) => [issue.code, issue.details?.tool_call_id, issue.details?.name, issue.details?.index, issue.details?.reason])).toEqual([
      ['AGN036.MANIFEST.NAME_MISMATCH', 'call_a', 'read_file', 0, 'name_mismatch'],
      // Five calls, four results: matched by id, call_b and call_d have none and call_x's
      // result has no call; call_e's result is there (one place earlier than its call).
      ['AGN036.MANIFEST.COUNT_MISMATCH', 'call_b', 'search_code', 1, 'result_missing'],
      ['AGN036.MANIFEST.COUNT_MISMATCH', 'call_d', 'open_pr', 3, 'result_missing'],
      ['AGN036.MANIFEST.COUNT_MISMATCH', 'call_x', 'search_code', 1, 'call_missing'],
      ['AGN036.MANIFEST.RESULT_JSON_MISSING', 'call_c', 'run_tests', 2, 'result_json_missing'],
    ]);
    for (const issue of result.errors) {
      expect(issue.message).toContain(String(issue.details?.tool_call_id));
      expect(issue.message).toContain(String(issue.details?.name));
      expect(issue.phase).toBe('manifest');
    }
    expect(result.errors[0]?.message).toContain("'read_files'");
    expect(result.errors[1]?.message).toContain('ToolCalls has 5 entries, ToolCallResults has 4');
  });

  const calls = (...ids: string[]) => ids.map((id) => ({ ToolCallId: id, Name: `tool_${id}` }));
  const results = (...ids: string[]) => ids.map((id) => ({ ToolCallId: id, Name: `tool_${id}`, ResultJson: '{}' }));
  const manifestIssues = (manifest: object) => validateToolCallManifest(manifest).errors.map((issue) => [issue.code, issue.path, issue.details?.tool_call_id, issue.details?.reason]);

  it('names the call that has no result by its id, not by its position', () => {
    expect(manifestIssues({ ToolCalls: calls('c1', 'c2'), ToolCallResults: results('c2') })).toEqual([
      ['AGN036.MANIFEST.COUNT_MISMATCH', '$.ToolCalls[0]', 'c1', 'result_missing'],
    ]);
    const [issue] = validateToolCallManifest({ ToolCalls: calls('c1', 'c2'), ToolCallResults: results('c2') }).errors;
    expect(issue?.message).toBe("ToolCalls[0] (tool call 'c1' named 'tool_c1') has no result: ToolCalls has 2 entries, ToolCallResults has 1");
    // Near twins: the last call missing, a result with no call, nothing missing at all.
    expect(manifestIssues({ ToolCalls: calls('c1', 'c2'), ToolCallResults: results('c1') })).toEqual([['AGN036.MANIFEST.COUNT_MISMATCH', '$.ToolCalls[1]', 'c2', 'result_missing']]);
    expect(manifestIssues({ ToolCalls: calls('c2'), ToolCallResults: results('c1', 'c2') })).toEqual([['AGN036.MANIFEST.COUNT_MISMATCH', '$.ToolCallResults[0]', 'c1', 'call_missing']]);
    expect(manifestIssues({ ToolCalls: calls('c1', 'c2'), ToolCallResults: results('c1', 'c2') })).toEqual([]);
  });

  it('matches a repeated id with its next unmatched twin, and calls without ids with results without ids', () => {
    expect(manifestIssues({ ToolCalls: calls('c1', 'c1'), ToolCallResults: results('c1') })).toEqual([['AGN036.MANIFEST.COUNT_MISMATCH', '$.ToolCalls[1]', 'c1', 'result_missing']]);
    expect(manifestIssues({ ToolCalls: [...calls('c1'), { Name: 'anon' }], ToolCallResults: results('c1') })).toEqual([
      ['AGN036.MANIFEST.TOOL_CALL_ID_MISSING', '$.ToolCalls[1].ToolCallId', null, 'tool_call_id_missing'],
      ['AGN036.MANIFEST.COUNT_MISMATCH', '$.ToolCalls[1]', null, 'result_missing'],
    ]);
  });

  it('with different counts still reports results out of the order of their calls, and names that differ', () => {
    expect(manifestIssues({ ToolCalls: calls('c1', 'c2', 'c3'), ToolCallResults: results('c2', 'c1') })).toEqual([
      ['AGN036.MANIFEST.ORDER_MISMATCH', '$.ToolCallResults[0].ToolCallId', 'c1', 'out_of_order'],
      ['AGN036.MANIFEST.ORDER_MISMATCH', '$.ToolCallResults[1].ToolCallId', 'c2', 'out_of_order'],
      ['AGN036.MANIFEST.COUNT_MISMATCH', '$.ToolCalls[2]', 'c3', 'result_missing'],
    ]);
    const renamed = [{ ToolCallId: 'c2', Name: 'other', ResultJson: '{}' }];
    expect(validateToolCallManifest({ ToolCalls: calls('c1', 'c2'), ToolCallResults: renamed }).errors.map((issue) => [issue.code, issue.path, issue.details?.index, issue.details?.result_index])).toEqual([
      ['AGN036.MANIFEST.NAME_MISMATCH', '$.ToolCallResults[0].Name', 1, 0],
      ['AGN036.MANIFEST.COUNT_MISMATCH', '$.ToolCalls[0]', 0, undefined],
    ]);
  });

  it('reports each result without a call when there are more results than calls', () => {
    const { ToolCalls, ToolCallResults } = exampleManifest();
    const result = validateToolCallManifest({ ToolCalls: ToolCalls.slice(0, 1), ToolCallResults });
    expect(result.errors.map((issue) => [issue.code, issue.path, issue.details?.reason])).toEqual([
      ['AGN036.MANIFEST.COUNT_MISMATCH', '$.ToolCallResults[1]', 'call_missing'],
      ['AGN036.MANIFEST.COUNT_MISMATCH', '$.ToolCallResults[2]', 'call_missing'],
    ]);
  });

  it('treats absent lists as empty, and reports entries that are not objects once', () => {
    expect(validateToolCallManifest({}).errors).toEqual([]);
    const result = validateToolCallManifest({ ToolCalls: [null, { ToolCallId: 'c', Name: 'n' }], ToolCallResults: ['x', { ToolCallId: 'c', Name: 'n', ResultJson: '1' }] });
    expect(result.errors.map((issue) => [issue.code, issue.path])).toEqual([
      ['AGN036.SHAPE.INVALID_TYPE', '$.ToolCalls[0]'],
      ['AGN036.SHAPE.INVALID_TYPE', '$.ToolCallResults[0]'],
    ]);
  });

  it(`caps one call at ${MAX_ISSUES} issues and says how many were left out`, () => {
    const calls = Array.from({ length: 5000 }, (_, i) => ({ ToolCallId: `c${i}`, Name: 'n' }));
    const result = validateToolCallManifest({ ToolCalls: calls, ToolCallResults: [] });
    expect(result.errors).toHaveLength(MAX_ISSUES);
    expect(result.warnings).toEqual([expect.objectContaining({ code: 'AGN036.SHAPE.ISSUES_TRUNCATED', details: { dropped: 4000, limit: MAX_ISSUES } })]);
  });
});

describe('untrusted input', () => {
  const garbage: unknown[] = [
    null,
    undefined,
    0,
    -1.5,
    'Initial',
    '',
    true,
    [],
    [exampleStep('Initial', 'RequestHandler').after],
    {},
    { Type: ['Initial'], Envelope: 'org', Session: 1, ToolCallManifest: [], ClientToolCalls: {}, PromptKnowledgeProvider: { Ready: 'yes' } },
    { ToolCallManifest: { ToolCalls: 'all', ToolCallResults: [1, [], null] } },
    { Envelope: nested(100_000), Session: nested(100_000), envelope: nested(100_000) },
    withFields(exampleStep('FollowOn', 'ResponseBuilder').after, { ResponsePayload: nested(100_000) }),
    JSON.parse('{"__proto__": {"Type": "Initial", "polluted": true}, "constructor": {"prototype": {"polluted": true}}}'),
    JSON.parse('{"Envelope": {"__proto__": {"Org": "o", "User": "u"}, "constructor": "x"}, "__proto__": null}'),
    Object.create(null),
    Object.create({ Type: 'Initial', TimeStamp: 't', CorrelationId: 'c', Envelope: { Org: 'o', User: 'u', Instructions: 'i' } }),
  ];

  it('reports issues and never throws, whatever the input', () => {
    for (const input of garbage) {
      for (const result of everyEntryPoint(input, input)) expectWellFormed(result);
    }
    expect(codes(validateCore(null))).toEqual(['AGN036.SHAPE.NOT_OBJECT']);
    expect(codes(validateCore([]))).toEqual(['AGN036.SHAPE.NOT_OBJECT']);
    expect(codes(validateToolCallManifest(7))).toEqual(['AGN036.SHAPE.NOT_OBJECT']);
    expect(codes(validatePreStep(undefined, 'Reasoner'))).toEqual(['AGN036.SHAPE.NOT_OBJECT']);
    expect(codes(validatePreStep({}, 42 as unknown as PipelineStep))).toEqual(['AGN036.SHAPE.UNKNOWN_STEP']);
  });

  it('reports each mistyped field once, with the type it should have', () => {
    const result = validateCore(garbage[10]);
    expect(result.errors.map((issue) => [issue.code, issue.path, issue.details?.expected])).toEqual([
      ['AGN036.SHAPE.INVALID_TYPE', '$.Type', 'a string'],
      ['AGN036.SHAPE.INVALID_TYPE', '$.Envelope', 'an object'],
      ['AGN036.SHAPE.INVALID_TYPE', '$.Session', 'an object'],
      ['AGN036.SHAPE.INVALID_TYPE', '$.ToolCallManifest', 'an object'],
      ['AGN036.SHAPE.INVALID_TYPE', '$.PromptKnowledgeProvider.Ready', 'a boolean'],
      ['AGN036.SHAPE.INVALID_TYPE', '$.ClientToolCalls', 'an array'],
      ['AGN036.CORE.TIMESTAMP', '$.TimeStamp', undefined],
      ['AGN036.CORE.CORRELATION_ID', '$.CorrelationId', undefined],
    ]);
  });

  it('reads own properties only: __proto__, constructor and inherited fields are data, not fields', () => {
    const fromProto = validateCore(garbage[14]);
    expect(codes(fromProto)).toContain('AGN036.CORE.TYPE');
    expect(codes(validateCore(garbage[15]))).toEqual(
      expect.arrayContaining(['AGN036.CORE.ENVELOPE_ORG', 'AGN036.CORE.ENVELOPE_USER']),
    );
    expect(codes(validateCore(garbage[17]))).toContain('AGN036.CORE.TYPE');
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.prototype).not.toHaveProperty('polluted');
  });

  it('reports values too deep to compare instead of recursing without bound', () => {
    const { before, after } = exampleStep('FollowOn', 'ResponseBuilder');
    const result = validatePostStep(withField(after, 'ResponsePayload', nested(100_000)), 'ResponseBuilder', withField(before, 'ResponsePayload', nested(100_000)));
    expect(result.errors.map(({ code, path }) => [code, path])).toEqual([['AGN036.SHAPE.TOO_DEEP', '$.ResponsePayload']]);
  });

  it('never throws on arbitrary JSON (property)', () => {
    fc.assert(
      fc.property(fc.json(), (text) => {
        const value: unknown = JSON.parse(text);
        return everyEntryPoint(value, value).every(isWellFormed);
      }),
      { numRuns: 300 },
    );
  });

  it('never throws on objects with the known field names and arbitrary JSON values (property)', () => {
    const field = fc.constantFrom('Type', 'TimeStamp', 'CorrelationId', 'Envelope', 'Session', 'Turn', 'ToolCallManifest', 'ResponseType', 'ResponsePayload', 'ClientToolCalls', 'PromptKnowledgeProvider', 'envelope', 'toolCallManifest', '__proto__');
    const value = fc.jsonValue({ maxDepth: 3 });
    const inner = fc.dictionary(fc.constantFrom('Org', 'User', 'SessionId', 'ToolResults', 'ToolCalls', 'ToolCallResults', 'Id', 'Mode', 'Ready', 'toolCalls', 'sessionId'), value);
    const context = fc.dictionary(field, fc.oneof(value, inner, fc.array(inner, { maxLength: 4 })));
    fc.assert(
      fc.property(context, context, (ctx, before) => {
        const input = JSON.parse(JSON.stringify(ctx)) as unknown;
        return everyEntryPoint(input, before).every(isWellFormed);
      }),
      { numRuns: 300 },
    );
  });
});
