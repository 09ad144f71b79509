import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { parseDocument } from './parse-document';
import { argumentPathStatus, checkJsonSchema, conformanceDiagnostics, jsonSchemaLintCodes } from './schema-checks';

const nowhere = () => ({ startLine: 1, startColumn: 1, endLine: 1, endColumn: 1 });
const findings = (schema: unknown) => checkJsonSchema(schema, ['params'], nowhere, 'X').map((d) => [d.code, d.path]);

describe('checkJsonSchema', () => {
  it('names its codes under the prefix it is given', () => {
    expect(Object.keys(jsonSchemaLintCodes('TOOL_SURFACE')).sort()).toEqual([
      'TOOL_SURFACE_DATA_REF', 'TOOL_SURFACE_EMPTY_ENUM', 'TOOL_SURFACE_MIN_GREATER_THAN_MAX', 'TOOL_SURFACE_REGEX_UNSAFE',
      'TOOL_SURFACE_REMOTE_REF', 'TOOL_SURFACE_REQUIRED_NOT_IN_PROPERTIES',
    ]);
    expect(checkJsonSchema({ enum: [] }, [], nowhere, 'TOOL_SURFACE')[0]).toMatchObject({ code: 'TOOL_SURFACE_EMPTY_ENUM', severity: 'error', path: '$.enum' });
  });

  it.each([
    [{ minimum: 5, maximum: 4 }, 'minimum'],
    [{ exclusiveMinimum: 4, exclusiveMaximum: 4 }, 'exclusiveMinimum'],
    [{ minimum: 4, exclusiveMaximum: 4 }, 'minimum'],
    [{ exclusiveMinimum: 4, maximum: 4 }, 'exclusiveMinimum'],
    [{ minLength: 3, maxLength: 2 }, 'minLength'],
    [{ minItems: 3, maxItems: 2 }, 'minItems'],
    [{ minProperties: 3, maxProperties: 2 }, 'minProperties'],
    [{ minContains: 3, maxContains: 2 }, 'minContains'],
  ])('MIN_GREATER_THAN_MAX: %j', (bounds, low) => {
    expect(findings(bounds)).toEqual([['X_MIN_GREATER_THAN_MAX', `$.params.${low}`]]);
  });

  it.each([
    { minimum: 4, maximum: 4 },
    { exclusiveMinimum: 3, exclusiveMaximum: 4 },
    { minLength: 2, maxLength: 2 },
    { minimum: '9', maximum: 1 },
  ])('accepts satisfiable bounds: %j', (bounds) => {
    expect(findings(bounds)).toEqual([]);
  });

  it('walks every kind of subschema and reports the exact path', () => {
    const bad = { enum: [] };
    const schema = {
      properties: { a: bad },
      items: bad,
      prefixItems: [{}, bad],
      $defs: { d: bad },
      allOf: [bad],
      anyOf: [{ not: bad }],
      oneOf: [{ if: bad, then: bad, else: bad }],
      additionalProperties: bad,
      patternProperties: { '^p': bad },
      dependentSchemas: { k: bad },
      contains: bad,
      propertyNames: bad,
    };
    expect(findings(schema).map(([, path]) => path).sort()).toEqual([
      '$.params.$defs.d.enum', '$.params.additionalProperties.enum', '$.params.allOf[0].enum',
      '$.params.anyOf[0].not.enum', '$.params.contains.enum', '$.params.dependentSchemas.k.enum',
      '$.params.items.enum', '$.params.oneOf[0].else.enum', '$.params.oneOf[0].if.enum', '$.params.oneOf[0].then.enum',
      "$.params.patternProperties['^p'].enum", '$.params.prefixItems[1].enum', '$.params.properties.a.enum',
      '$.params.propertyNames.enum',
    ]);
  });

  it('does not mistake a property named like a keyword for the keyword', () => {
    expect(findings({ properties: { pattern: { type: 'string' }, enum: { type: 'array' }, $data: { type: 'string' } } })).toEqual([]);
  });

  it('REQUIRED_NOT_IN_PROPERTIES sees keys declared by combined, referenced and pattern schemas', () => {
    expect(findings({ required: ['a'], properties: { b: {} } })).toEqual([['X_REQUIRED_NOT_IN_PROPERTIES', '$.params.required[0]']]);
    expect(findings({ type: 'object', required: ['a'] })).toEqual([['X_REQUIRED_NOT_IN_PROPERTIES', '$.params.required[0]']]);
    expect(findings({ properties: { a: {}, b: {} }, anyOf: [{ required: ['a'] }, { required: ['b'] }] })).toEqual([]);
    expect(findings({ properties: { a: {} }, anyOf: [{ required: ['c'] }] })).toEqual([['X_REQUIRED_NOT_IN_PROPERTIES', '$.params.anyOf[0].required[0]']]);
    expect(findings({ required: ['a'], allOf: [{ $ref: '#/$defs/base' }], $defs: { base: { properties: { a: {} } } } })).toEqual([]);
    expect(findings({ required: ['x_1'], patternProperties: { '^x_[0-9]$': {} } })).toEqual([]);
    expect(findings({ required: ['y'], patternProperties: { '^x_[0-9]$': {} } })).toEqual([['X_REQUIRED_NOT_IN_PROPERTIES', '$.params.required[0]']]);
    expect(findings({ required: ['any'], additionalProperties: { type: 'string' } })).toEqual([]);
    // A property of a nested object does not declare a key of its parent.
    expect(findings({ required: ['a'], properties: { b: { properties: { a: {} } } } })).toEqual([['X_REQUIRED_NOT_IN_PROPERTIES', '$.params.required[0]']]);
  });

  it('REGEX_UNSAFE, REMOTE_REF and DATA_REF', () => {
    expect(findings({ pattern: '^(a)\\1$' })).toEqual([['X_REGEX_UNSAFE', '$.params.pattern']]);
    expect(findings({ pattern: '^\\u0041[a-z]{2,3}$' })).toEqual([]);
    expect(findings({ patternProperties: { '(?<=a)b': {} } })).toEqual([['X_REGEX_UNSAFE', "$.params.patternProperties['(?<=a)b']"]]);
    expect(findings({ $ref: 'http://x.test/s' })).toEqual([['X_REMOTE_REF', '$.params.$ref']]);
    expect(findings({ $dynamicRef: '#meta', $ref: '#/$defs/a' })).toEqual([]);
    expect(findings({ $data: '1/x' })).toEqual([['X_DATA_REF', '$.params.$data']]);
    expect(findings({ maximum: { $data: '1/x' } })).toEqual([['X_DATA_REF', '$.params.maximum.$data']]);
  });

  it('survives cycles through $ref and non-object schemas', () => {
    const schema = { $defs: { a: { $ref: '#/$defs/b' }, b: { $ref: '#/$defs/a' } }, required: ['z'], allOf: [{ $ref: '#/$defs/a' }], items: true };
    expect(findings(schema)).toEqual([['X_REQUIRED_NOT_IN_PROPERTIES', '$.params.required[0]']]);
    for (const odd of [null, 1, 'x', [], true, { required: 'x' }, { enum: 'x' }, { $ref: '#/%E0%A4%A' }]) expect(findings(odd)).toBeInstanceOf(Array);
  });
});

describe('argumentPathStatus', () => {
  const input = {
    type: 'object',
    properties: {
      order: { $ref: '#/$defs/order' },
      tags: { type: 'array', items: { type: 'string' } },
      pair: { type: 'array', prefixItems: [{ type: 'object', properties: { x: {} } }] },
      meta: { type: 'object' },
      labels: { type: 'object', additionalProperties: { type: 'object', properties: { v: {} } } },
    },
    allOf: [{ properties: { extra: {} } }],
    $defs: { order: { type: 'object', properties: { lines: { type: 'array', items: { properties: { sku: {} } } } } } },
  };

  it.each([
    [['order', 'lines', 0, 'sku'], true],
    [['order', 'lines', 0, 'skew'], false],
    [['tags', 3], true],
    [['pair', 0, 'x'], true],
    [['pair', 0, 'y'], false],
    [['meta', 'anything', 'deeper'], true],
    [['labels', 'any', 'v'], true],
    [['labels', 'any', 'w'], false],
    [['extra'], true],
    [['nope'], false],
  ] as const)('%j declared: %s', (path, declared) => {
    expect(argumentPathStatus(input, path).declared).toBe(declared);
  });

  it('says how deep the first undeclared segment is', () => {
    expect(argumentPathStatus(input, ['order', 'linez', 0])).toEqual({ declared: false, depth: 1 });
    expect(argumentPathStatus(true, ['a'])).toEqual({ declared: true });
  });
});

describe('conformanceDiagnostics', () => {
  const Schema = z.object({ name: z.string(), items: z.array(z.object({ id: z.number(), tag: z.string() }).strict()) }).strict();

  it('underlines unknown keys, wrong values and the parent of a missing field', () => {
    const text = 'items:\n  - id: one\n    tag: a\n    extra: 1\n  - tag: b\nname: x\nsurprise: true\n';
    const parsed = parseDocument(text);
    const result = Schema.safeParse(parsed.value);
    expect(result.success).toBe(false);
    if (result.success) return;
    const found = conformanceDiagnostics(result.error.issues, parsed.value, parsed.locate, 'X_INVALID', 'warning');
    const summary = found.map((d) => [d.path, d.severity, d.range.startLine, d.range.startColumn]);
    expect(summary).toEqual(expect.arrayContaining([
      ['$.items[0].id', 'warning', 2, 9],
      ['$.items[0].extra', 'warning', 4, 5],
      ['$.items[1].id', 'warning', 5, 5],
      ['$.surprise', 'warning', 7, 1],
    ]));
    expect(found).toHaveLength(4);
    expect(found.find((d) => d.path === '$.items[1].id')!.message).toBe('Missing required field "id" in items[1].');
    expect(found.find((d) => d.path === '$.surprise')!.message).toBe('Unknown field "surprise" in the document.');
  });
});
