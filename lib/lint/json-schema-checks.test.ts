import { describe, expect, it } from 'vitest';
import { checkJsonSchema, jsonSchemaLintCodes } from './json-schema-checks';

const nowhere = () => ({ startLine: 1, startColumn: 1, endLine: 1, endColumn: 1 });
const findings = (schema: unknown) => checkJsonSchema(schema, ['params'], nowhere, 'X').map((d) => [d.code, d.path]);

describe('checkJsonSchema', () => {
  it('names its codes under the prefix it is given', () => {
    expect(Object.keys(jsonSchemaLintCodes('TOOL_SURFACE')).sort()).toEqual([
      'TOOL_SURFACE_DATA_REF',
      'TOOL_SURFACE_EMPTY_ENUM',
      'TOOL_SURFACE_MIN_GREATER_THAN_MAX',
      'TOOL_SURFACE_REGEX_UNSAFE',
      'TOOL_SURFACE_REMOTE_REF',
      'TOOL_SURFACE_REQUIRED_NOT_IN_PROPERTIES',
      'TOOL_SURFACE_UNKNOWN_FORMAT',
    ]);
    expect(checkJsonSchema({ enum: [] }, [], nowhere, 'TOOL_SURFACE')[0]).toMatchObject({
      code: 'TOOL_SURFACE_EMPTY_ENUM',
      severity: 'error',
      path: '$.enum',
    });
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

  it('UNKNOWN_FORMAT: a format contracts do not check is an error, the ones they check are not', () => {
    // docs/json-schema.md: a contract's `format` is an assertion (the AXAG seed checks email,
    // date, URI); Ajv ignores a format it does not know, so a typo checked nothing.
    const schema = {
      properties: { a: { type: 'string', format: 'emial' }, b: { format: 'phone' }, c: { format: 'idn-email' } },
      items: { format: 'email' },
      $defs: { d: { format: 'date' }, e: { format: 'uri' }, f: { format: 'date-time' }, g: { format: 'uuid' }, h: { format: 'int32' } },
    };
    expect(findings(schema).sort()).toEqual([
      ['X_UNKNOWN_FORMAT', '$.params.properties.a.format'],
      ['X_UNKNOWN_FORMAT', '$.params.properties.b.format'],
      ['X_UNKNOWN_FORMAT', '$.params.properties.c.format'],
    ]);
    expect(checkJsonSchema({ format: 'emial' }, [], nowhere, 'CONTRACT')[0]).toMatchObject({
      code: 'CONTRACT_UNKNOWN_FORMAT',
      severity: 'error',
      path: '$.format',
    });
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
    expect(
      findings(schema)
        .map(([, path]) => path)
        .sort(),
    ).toEqual([
      '$.params.$defs.d.enum',
      '$.params.additionalProperties.enum',
      '$.params.allOf[0].enum',
      '$.params.anyOf[0].not.enum',
      '$.params.contains.enum',
      '$.params.dependentSchemas.k.enum',
      '$.params.items.enum',
      '$.params.oneOf[0].else.enum',
      '$.params.oneOf[0].if.enum',
      '$.params.oneOf[0].then.enum',
      "$.params.patternProperties['^p'].enum",
      '$.params.prefixItems[1].enum',
      '$.params.properties.a.enum',
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
    expect(findings({ properties: { a: {} }, anyOf: [{ required: ['c'] }] })).toEqual([
      ['X_REQUIRED_NOT_IN_PROPERTIES', '$.params.anyOf[0].required[0]'],
    ]);
    expect(findings({ required: ['a'], allOf: [{ $ref: '#/$defs/base' }], $defs: { base: { properties: { a: {} } } } })).toEqual([]);
    expect(findings({ required: ['x_1'], patternProperties: { '^x_[0-9]$': {} } })).toEqual([]);
    expect(findings({ required: ['y'], patternProperties: { '^x_[0-9]$': {} } })).toEqual([
      ['X_REQUIRED_NOT_IN_PROPERTIES', '$.params.required[0]'],
    ]);
    expect(findings({ required: ['any'], additionalProperties: { type: 'string' } })).toEqual([]);
    // A property of a nested object does not declare a key of its parent.
    expect(findings({ required: ['a'], properties: { b: { properties: { a: {} } } } })).toEqual([
      ['X_REQUIRED_NOT_IN_PROPERTIES', '$.params.required[0]'],
    ]);
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
    const schema = {
      $defs: { a: { $ref: '#/$defs/b' }, b: { $ref: '#/$defs/a' } },
      required: ['z'],
      allOf: [{ $ref: '#/$defs/a' }],
      items: true,
    };
    expect(findings(schema)).toEqual([['X_REQUIRED_NOT_IN_PROPERTIES', '$.params.required[0]']]);
    for (const odd of [null, 1, 'x', [], true, { required: 'x' }, { enum: 'x' }, { $ref: '#/%E0%A4%A' }])
      expect(findings(odd)).toBeInstanceOf(Array);
  });
});
