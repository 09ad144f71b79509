import Ajv2020 from 'ajv/dist/2020';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { TOOL_CALL_MANIFEST_FIELDS } from './context-fields';
import { exampleManifest, exampleRun, exampleStep } from './examples';
import { PIPELINE_CONTEXT_JSON_SCHEMA, TOOL_CALL_MANIFEST_JSON_SCHEMA } from './json-schema';
import { toCamelCase, withField } from './test-helpers';
import { PIPELINE_CONTEXT_TYPES, RESPONSE_TYPES } from './types';
import { validateCore } from './validate-pipeline';

const ajv = new Ajv2020({ strict: true, allErrors: true });
const checkContext = ajv.compile(PIPELINE_CONTEXT_JSON_SCHEMA);
const checkManifest = ajv.compile(TOOL_CALL_MANIFEST_JSON_SCHEMA);

describe('PIPELINE_CONTEXT_JSON_SCHEMA', () => {
  it('is a draft 2020-12 schema that documents both spellings of every field', () => {
    expect(PIPELINE_CONTEXT_JSON_SCHEMA.$schema).toBe('https://json-schema.org/draft/2020-12/schema');
    const properties = PIPELINE_CONTEXT_JSON_SCHEMA.properties ?? {};
    expect(Object.keys(properties)).toEqual(
      expect.arrayContaining(['Type', 'type', 'CorrelationId', 'correlationId', 'ToolCallManifest', 'toolCallManifest']),
    );
    expect(JSON.stringify(properties.correlationId)).toContain('camelCase spelling of CorrelationId');
  });

  it.each(PIPELINE_CONTEXT_TYPES)('accepts every snapshot of a %s run, in both spellings', (type) => {
    for (const { before, after } of exampleRun(type)) {
      for (const snapshot of [before, after, toCamelCase(before), toCamelCase(after)]) {
        expect(checkContext(snapshot), JSON.stringify(checkContext.errors)).toBe(true);
      }
    }
  });

  it('rejects what the validator reports as mistyped', () => {
    const { after } = exampleStep('Initial', 'RequestHandler');
    for (const [path, value] of [
      ['CorrelationId', 42],
      ['Envelope.SessionId', ['ses']],
      ['Envelope', 'org'],
      ['ClientToolCalls', [7]],
      ['PromptKnowledgeProvider', { Ready: 'yes' }],
    ] as const) {
      const broken = withField(after, path, value);
      expect(checkContext(broken), path).toBe(false);
      expect(validateCore(broken).errors.map((issue) => issue.code)).toContain('AGN036.SHAPE.INVALID_TYPE');
    }
  });

  it('agrees with the validator on JSON types (property)', () => {
    // Enum values are the exception on purpose: the schema lists them, the validator reports a
    // wrong value under the content rule (AGN036.CORE.TYPE), not as a type error.
    const field = fc.constantFrom(
      'Type',
      'TimeStamp',
      'Envelope',
      'envelope',
      'Session',
      'Turn',
      'ToolCallManifest',
      'PromptKnowledgeProvider',
      'ResponseType',
      'ClientToolCalls',
    );
    const inner = fc.dictionary(
      fc.constantFrom('Org', 'User', 'SessionId', 'ToolResults', 'ToolCalls', 'ToolCallResults', 'Id', 'Mode', 'Ready'),
      fc.jsonValue({ maxDepth: 2 }),
    );
    const value = fc.oneof(
      fc.jsonValue({ maxDepth: 2 }),
      inner,
      fc.array(inner, { maxLength: 3 }),
      fc.constantFrom(...PIPELINE_CONTEXT_TYPES, ...RESPONSE_TYPES),
    );
    fc.assert(
      fc.property(fc.dictionary(field, value), (ctx) => {
        const errors = validateCore(ctx).errors;
        const typeErrors = errors.filter((issue) => issue.code === 'AGN036.SHAPE.INVALID_TYPE');
        // When both spellings are sent and only the one not judged (camelCase) is mistyped, the
        // validator refuses the disagreement itself (AMBIGUOUS_FIELD) rather than its type.
        const ambiguous = errors.some((issue) => issue.code === 'AGN036.SHAPE.AMBIGUOUS_FIELD');
        const enumOk =
          [undefined, null, ...PIPELINE_CONTEXT_TYPES].includes(ctx.Type as never) &&
          [undefined, null, ...RESPONSE_TYPES].includes(ctx.ResponseType as never);
        if (checkContext(ctx)) return typeErrors.length === 0;
        return !enumOk || typeErrors.length > 0 || ambiguous;
      }),
      { numRuns: 300 },
    );
  });
});

describe('TOOL_CALL_MANIFEST_JSON_SCHEMA', () => {
  it('accepts a manifest in both spellings and rejects mistyped entries', () => {
    expect(checkManifest(exampleManifest())).toBe(true);
    expect(checkManifest(toCamelCase(exampleManifest(), TOOL_CALL_MANIFEST_FIELDS))).toBe(true);
    expect(checkManifest({ ToolCalls: [{ ToolCallId: 1, Name: 'x' }] })).toBe(false);
    expect(checkManifest({ toolCallResults: [{ toolCallId: 'c', name: 'x', resultJson: { ok: true } }] })).toBe(false);
  });
});
