import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { exampleStep } from './examples';
import { codes, everyEntryPoint, expectWellFormed, isWellFormed, nested, withField, withFields } from './test-helpers';
import type { PipelineStep } from './types';
import { validateCore, validatePostStep, validatePreStep, validateToolCallManifest } from './validate-pipeline';

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
    {
      Type: ['Initial'],
      Envelope: 'org',
      Session: 1,
      ToolCallManifest: [],
      ClientToolCalls: {},
      PromptKnowledgeProvider: { Ready: 'yes' },
    },
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
    expect(codes(validateCore(garbage[15]))).toEqual(expect.arrayContaining(['AGN036.CORE.ENVELOPE_ORG', 'AGN036.CORE.ENVELOPE_USER']));
    expect(codes(validateCore(garbage[17]))).toContain('AGN036.CORE.TYPE');
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.prototype).not.toHaveProperty('polluted');
  });

  it('reports values too deep to compare instead of recursing without bound', () => {
    const { before, after } = exampleStep('FollowOn', 'ResponseBuilder');
    const result = validatePostStep(
      withField(after, 'ResponsePayload', nested(100_000)),
      'ResponseBuilder',
      withField(before, 'ResponsePayload', nested(100_000)),
    );
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
    const field = fc.constantFrom(
      'Type',
      'TimeStamp',
      'CorrelationId',
      'Envelope',
      'Session',
      'Turn',
      'ToolCallManifest',
      'ResponseType',
      'ResponsePayload',
      'ClientToolCalls',
      'PromptKnowledgeProvider',
      'envelope',
      'toolCallManifest',
      '__proto__',
    );
    const value = fc.jsonValue({ maxDepth: 3 });
    const inner = fc.dictionary(
      fc.constantFrom(
        'Org',
        'User',
        'SessionId',
        'ToolResults',
        'ToolCalls',
        'ToolCallResults',
        'Id',
        'Mode',
        'Ready',
        'toolCalls',
        'sessionId',
      ),
      value,
    );
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
