import { describe, expect, it } from 'vitest';
import { compileContract, MAX_CONTRACT_DEPTH, type CompiledContract } from './compile-contract';
import { CONTRACT_PROBLEM_CODES } from './contract-problems';
import type { ToolContractInput } from './contract-schema';
import { EXAMPLE_CONTRACTS, lookupOrderContract } from './examples';
import { OPTIMIZED_SCHEMA_MAX_NODES, SCHEMA_TOO_DEEP_MESSAGE } from './json-schema-engine';
import { MAX_SCHEMA_PATTERNS, MAX_UNEVALUATED_SCHEMA_NODES } from './schema-guards';
import { lintDocument } from '../lint';

const range = (n: number) => Array.from({ length: n }, (_, i) => i);

function baseContract(overrides: Partial<ToolContractInput> = {}): ToolContractInput {
  return {
    id: 'demo.tool',
    version: '1.0.0',
    description: 'A demo tool.',
    owner: 'team-demo',
    input: {
      type: 'object',
      properties: {
        tenant_id: { type: 'string' },
        order: { type: 'object', properties: { customer: { $ref: '#/$defs/customer' } } },
        code: { type: 'string', pattern: '^[a-z]+$' },
      },
      $defs: { customer: { type: 'object', properties: { user_id: { type: 'string' } } } },
    },
    annotations: { kind: 'query', side_effect_level: 'read_only', idempotent: true },
    ...overrides,
  };
}

function compiled(document: unknown): CompiledContract {
  const result = compileContract(document);
  if (!result.ok) throw new Error(JSON.stringify(result.problems));
  return result.contract;
}

function problemCodes(document: unknown): string[] {
  const result = compileContract(document);
  return result.ok ? [] : result.problems.map((p) => p.code);
}

describe('compileContract', () => {
  it('compiles every example contract', () => {
    for (const example of EXAMPLE_CONTRACTS) {
      expect(compileContract(example)).toMatchObject({ ok: true });
    }
  });

  it('compiles a valid contract, applies defaults and hashes the parsed document', () => {
    const contract = compiled(baseContract());
    expect(contract.document.annotations.confirmation_required).toBe(false);
    expect(contract.document.annotations.approver_roles).toEqual([]);
    expect(contract.hash).toMatch(/^[0-9a-f]{64}$/);
    // Key order does not change the hash.
    const reordered = Object.fromEntries(Object.entries(baseContract()).reverse());
    expect(compiled(reordered).hash).toBe(contract.hash);
    expect(compiled(baseContract({ description: 'Changed.' })).hash).not.toBe(contract.hash);
  });

  it('keeps its own copy of the document', () => {
    const document = baseContract();
    const contract = compiled(document);
    (document.input.properties as Record<string, unknown>).code = { type: 'integer' };
    expect(contract.checkInput({ code: 'abc' })).toEqual([]);
    expect((contract.document.input.properties as Record<string, { type: string }>).code?.type).toBe('string');
  });

  it('CONTRACT_SCHEMA_INVALID: malformed documents, with paths', () => {
    const result = compileContract({ ...baseContract(), id: 'NoDots', extra: true });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.problems.every((p) => p.code === 'CONTRACT_SCHEMA_INVALID')).toBe(true);
    expect(result.problems.map((p) => p.path)).toEqual(expect.arrayContaining(['$.id']));
    expect(problemCodes(baseContract({ id: 'demo' }))).toEqual(['CONTRACT_SCHEMA_INVALID']);
    expect(problemCodes(baseContract({ version: '1.0' }))).toEqual(['CONTRACT_SCHEMA_INVALID']);
    expect(problemCodes(baseContract({ version: '1.0.0-rc.1' }))).toEqual([]);
  });

  it('CONTRACT_TOO_LARGE: size and depth bounds', () => {
    expect(problemCodes(baseContract({ description: 'x'.repeat(4000) }))).toEqual([]);
    const big = baseContract({ input: { type: 'object', description: 'x'.repeat(300 * 1024) } });
    expect(problemCodes(big)).toEqual(['CONTRACT_TOO_LARGE']);
    let deep: Record<string, unknown> = { type: 'string' };
    for (let i = 0; i < MAX_CONTRACT_DEPTH; i += 1) deep = { type: 'object', properties: { a: deep } };
    expect(problemCodes(baseContract({ input: deep }))).toEqual(['CONTRACT_TOO_LARGE']);
  });

  it('CONTRACT_INPUT/OUTPUT/ERRORS_SCHEMA_INVALID: Ajv rejects the schema', () => {
    expect(problemCodes(baseContract({ input: { type: 'strin' } }))).toEqual(['CONTRACT_INPUT_SCHEMA_INVALID']);
    expect(problemCodes(baseContract({ input: { $ref: '#/$defs/missing' } }))).toEqual(['CONTRACT_INPUT_SCHEMA_INVALID']);
    expect(problemCodes(baseContract({ output: { minimum: 'one' } }))).toEqual(['CONTRACT_OUTPUT_SCHEMA_INVALID']);
    expect(problemCodes(baseContract({ errors: { required: 'code' } }))).toEqual(['CONTRACT_ERRORS_SCHEMA_INVALID']);
    // A $schema naming a draft Ajv has not loaded is the author's mistake, not a crash.
    expect(problemCodes(baseContract({ input: { $schema: 'http://json-schema.org/draft-07/schema#', type: 'object' } }))).toEqual([
      'CONTRACT_INPUT_SCHEMA_INVALID',
    ]);
    expect(problemCodes(baseContract({ input: { $schema: 'https://json-schema.org/draft/2020-12/schema', type: 'object' } }))).toEqual([]);
    expect(problemCodes(baseContract({ output: { type: 'object' }, errors: { type: 'object' } }))).toEqual([]);
  });

  it('contracts may reuse $ids without colliding', () => {
    const withId = { $id: 'https://example.com/s.json', type: 'object' };
    expect(problemCodes(baseContract({ input: withId, output: withId, errors: withId }))).toEqual([]);
    expect(problemCodes(baseContract({ input: withId }))).toEqual([]);
  });

  it('CONTRACT_REGEX_UNSAFE: patterns RE2 cannot run are refused, not crashed on', () => {
    const withPattern = (pattern: string) => baseContract({ input: { type: 'object', properties: { s: { type: 'string', pattern } } } });
    const result = compileContract(withPattern('(a)\\1'));
    expect(result).toMatchObject({ ok: false, problems: [{ code: 'CONTRACT_REGEX_UNSAFE', path: '$.input.properties.s.pattern' }] });
    expect(problemCodes(withPattern('^(?=a)a$'))).toEqual(['CONTRACT_REGEX_UNSAFE']);
    expect(problemCodes(baseContract({ input: { patternProperties: { '(?<!x)y': {} } } }))).toEqual(['CONTRACT_REGEX_UNSAFE']);
    // Catastrophic under backtracking, harmless under RE2: accepted and run in linear time.
    expect(problemCodes(withPattern('(a+)+$'))).toEqual([]);
    // A property *named* pattern is not the keyword.
    expect(problemCodes(baseContract({ input: { properties: { pattern: { type: 'string' } } } }))).toEqual([]);
  });

  it('refuses a schema of more than MAX_SCHEMA_PATTERNS distinct patterns, whose compilation is quadratic in them', () => {
    const patterns = (n: number, offset = 0) => Array.from({ length: n }, (_, i) => `^p${i + offset}$`);
    const schema = (propertyPatterns: string[], keyPatterns: string[]) => ({
      type: 'object',
      properties: Object.fromEntries(propertyPatterns.map((pattern, i) => [`s${i}`, { type: 'string', pattern }])),
      patternProperties: Object.fromEntries(keyPatterns.map((pattern) => [pattern, { type: 'integer' }])),
    });
    // Distinct sources are counted, wherever they are and however often each is used.
    expect(problemCodes(baseContract({ input: schema([...patterns(300), ...patterns(300)], patterns(200, 300)) }))).toEqual([]);
    expect(compileContract(baseContract({ input: schema(patterns(300), patterns(201, 300)) }))).toMatchObject({
      ok: false,
      problems: [
        {
          code: 'CONTRACT_INPUT_SCHEMA_INVALID',
          path: '$.input',
          message: `The schema uses 501 distinct patterns (\`pattern\` and \`patternProperties\`); the limit is ${MAX_SCHEMA_PATTERNS}.`,
        },
      ],
    });
    // The linter says so too where it checks a schema too large to compile field by field.
    const large = {
      ...baseContract({ output: schema(patterns(501), []) }),
      input: { type: 'object', properties: Object.fromEntries(Array.from({ length: 1600 }, (_, i) => [`k${i}`, {}])) },
    };
    const found = lintDocument('contract', JSON.stringify(large)).diagnostics.filter((d) => d.severity === 'error');
    expect(found.map((d) => [d.code, d.path])).toEqual([['CONTRACT_OUTPUT_SCHEMA_INVALID', '$.output']]);
  });

  it('compiles a definition named from many places once, not into each: 1,000 of 1,000 properties filled the memory', () => {
    const contract = compiled(
      baseContract({
        input: {
          type: 'object',
          $defs: {
            a: { type: 'object', properties: Object.fromEntries(range(1000).map((i) => [`q${i}`, { type: 'integer', minimum: i }])) },
          },
          properties: { tenant_id: { type: 'string' }, ...Object.fromEntries(range(1000).map((i) => [`p${i}`, { $ref: '#/$defs/a' }])) },
        },
      }),
    );
    expect(contract.checkInput({ p0: { q5: 5 }, p999: { q999: 999 } })).toEqual([]);
    expect(contract.checkInput({ p3: { q7: 6 }, p998: { q1: 'x' } }).map((issue) => [issue.code, issue.path])).toEqual([
      ['AXAG_OUT_OF_RANGE', '$.p3.q7'],
      ['AXAG_INVALID_TYPE', '$.p998.q1'],
    ]);
  });

  it('checks a schema past OPTIMIZED_SCHEMA_MAX_NODES (compiled without the optimizer) as it checks a small one', () => {
    const properties = (n: number) => Object.fromEntries(range(n).map((i) => [`k${i}`, { type: 'integer', maximum: i }]));
    const large = compiled(
      baseContract({
        input: { type: 'object', required: ['k1'], properties: { tenant_id: {}, ...properties(2 * OPTIMIZED_SCHEMA_MAX_NODES) } },
      }),
    );
    const small = compiled(baseContract({ input: { type: 'object', required: ['k1'], properties: { tenant_id: {}, ...properties(10) } } }));
    for (const value of [{ k1: 1, k5: 5 }, { k5: 6 }, { k1: 'x', k9: 9.5 }, []])
      expect(large.checkInput(value), JSON.stringify(value)).toEqual(small.checkInput(value));
  });

  it('refuses unevaluatedProperties or unevaluatedItems in a schema past MAX_UNEVALUATED_SCHEMA_NODES, and keeps them in a smaller one', () => {
    const members = (n: number) => range(n).map((i) => ({ properties: { [`k${i}`]: { type: 'integer' } } }));
    const small = compiled(
      baseContract({ input: { type: 'object', properties: { tenant_id: {} }, allOf: members(300), unevaluatedProperties: false } }),
    );
    expect(small.checkInput({ k0: 1, k299: 2 })).toEqual([]);
    expect(small.checkInput({ k0: 1, k300: 2 }).map((issue) => [issue.code, issue.path])).toEqual([['AXAG_UNKNOWN_PARAM', '$.k300']]);
    const input = { type: 'object', properties: { tenant_id: {}, list: { type: 'array', unevaluatedItems: false } }, allOf: members(400) };
    const refused = {
      ok: false,
      problems: [
        {
          code: 'CONTRACT_INPUT_SCHEMA_INVALID',
          path: '$.input.properties.list.unevaluatedItems',
          message: `A schema using unevaluatedProperties or unevaluatedItems may hold at most ${MAX_UNEVALUATED_SCHEMA_NODES} objects and arrays; this one holds more. Use additionalProperties, or split the schema.`,
        },
      ],
    };
    expect(compileContract(baseContract({ input }))).toEqual(refused);
    // The linter says so too.
    const found = lintDocument('contract', JSON.stringify(baseContract({ input }))).diagnostics.filter((d) => d.severity === 'error');
    expect(found.map((d) => [d.code, d.path])).toEqual([['CONTRACT_INPUT_SCHEMA_INVALID', '$.input.properties.list.unevaluatedItems']]);
  });

  it('refuses a schema whose checks nest too deeply to compile with a message saying so, not a stack overflow', () => {
    expect(compileContract(baseContract({ output: { anyOf: range(15_000).map((i) => ({ const: i })) } }))).toEqual({
      ok: false,
      problems: [{ code: 'CONTRACT_OUTPUT_SCHEMA_INVALID', path: '$.output', message: SCHEMA_TOO_DEEP_MESSAGE }],
    });
  });

  it('CONTRACT_DATA_REF: $data is refused anywhere in the schemas', () => {
    expect(problemCodes(baseContract({ input: { properties: { n: { maximum: { $data: '1/max' } } } } }))).toEqual(['CONTRACT_DATA_REF']);
    expect(problemCodes(baseContract({ output: { allOf: [{ $data: '/x' }] } }))).toEqual(['CONTRACT_DATA_REF']);
    expect(problemCodes(baseContract({ input: { properties: { $data: { type: 'string' } } } }))).toEqual([]);
  });

  it('CONTRACT_REMOTE_REF: only local references', () => {
    expect(problemCodes(baseContract({ input: { $ref: 'https://evil.example/schema.json' } }))).toEqual(['CONTRACT_REMOTE_REF']);
    expect(problemCodes(baseContract({ errors: { items: { $dynamicRef: 'other.json#meta' } } }))).toEqual(['CONTRACT_REMOTE_REF']);
    expect(problemCodes(baseContract({ input: { $ref: '#/$defs/a', $defs: { a: { type: 'object' } } } }))).toEqual([]);
  });

  it('resolves a $ref to the $id of a schema embedded in the same document, without any network', () => {
    const relative = compiled(
      baseContract({
        input: {
          $id: 'https://schemas.example/order.json',
          type: 'object',
          properties: { sku: { $ref: 'sku.json' } },
          $defs: { sku: { $id: 'sku.json', type: 'string', pattern: '^[A-Z]{3}$' } },
        },
      }),
    );
    expect(relative.checkInput({ sku: 'ABC' })).toEqual([]);
    expect(relative.checkInput({ sku: 'abc' }).map((i) => [i.code, i.path])).toEqual([['AXAG_PATTERN_MISMATCH', '$.sku']]);
    const urn = compiled(
      baseContract({
        input: {
          type: 'object',
          properties: { n: { $ref: 'urn:toolgate:lib#/$defs/small' }, m: { $ref: 'urn:toolgate:lib#big' } },
          $defs: { lib: { $id: 'urn:toolgate:lib', $defs: { small: { maximum: 5 }, large: { $anchor: 'big', minimum: 100 } } } },
        },
      }),
    );
    expect(
      urn
        .checkInput({ n: 6, m: 50 })
        .map((i) => [i.code, i.path])
        .sort(),
    ).toEqual([
      ['AXAG_OUT_OF_RANGE', '$.m'],
      ['AXAG_OUT_OF_RANGE', '$.n'],
    ]);
    // Near twins: an id nobody embeds, the same name under another base, and an $id inside data.
    expect(problemCodes(baseContract({ input: { type: 'object', properties: { a: { $ref: 'urn:toolgate:elsewhere' } } } }))).toEqual([
      'CONTRACT_REMOTE_REF',
    ]);
    expect(
      problemCodes(
        baseContract({
          input: {
            $id: 'https://schemas.example/a/root.json',
            properties: { a: { $ref: 'https://schemas.example/b/sku.json' } },
            $defs: { sku: { $id: 'sku.json' } },
          },
        }),
      ),
    ).toEqual(['CONTRACT_REMOTE_REF']);
    expect(problemCodes(baseContract({ input: { properties: { a: { $ref: 'urn:x:y' } }, const: { $id: 'urn:x:y' } } }))).toEqual([
      'CONTRACT_REMOTE_REF',
    ]);
  });

  it('CONTRACT_EXPRESSION_INVALID: syntax, unknown variables, non-boolean, refused functions', () => {
    const pre = (expression: string) => baseContract({ preconditions: [{ id: 'c', expression, message: 'm' }] });
    expect(problemCodes(pre('args.x >'))).toEqual(['CONTRACT_EXPRESSION_INVALID']);
    expect(problemCodes(pre('secrets.key == "x"'))).toEqual(['CONTRACT_EXPRESSION_INVALID']);
    expect(problemCodes(pre('result.ok'))).toEqual(['CONTRACT_EXPRESSION_INVALID']);
    expect(problemCodes(pre('1 + 2'))).toEqual(['CONTRACT_EXPRESSION_INVALID']);
    expect(problemCodes(pre('args.code.matches("^(a+)+$")'))).toEqual(['CONTRACT_EXPRESSION_INVALID']);
    // Under a unary operator too: `!` holds its operand directly, not in a list.
    expect(problemCodes(pre('!args.code.matches("^(a+)+$")'))).toEqual(['CONTRACT_EXPRESSION_INVALID']);
    expect(problemCodes(pre('!(!args.code.matches("^(a+)+$"))'))).toEqual(['CONTRACT_EXPRESSION_INVALID']);
    expect(problemCodes(pre('args.code.startsWith("a") && "admin" in context.roles'))).toEqual([]);
    const post = baseContract({ postconditions: [{ id: 'c', expression: 'result.ok == true', message: 'm' }] });
    expect(problemCodes(post)).toEqual([]);
  });

  it('CONTRACT_SCOPE_PATH_UNKNOWN: scope and sensitive paths must be declared input properties', () => {
    expect(problemCodes(baseContract({ scope: { tenant: 'tenant_id', user: 'order.customer.user_id' } }))).toEqual([]);
    expect(problemCodes(baseContract({ scope: { tenant: 'tenantId' } }))).toEqual(['CONTRACT_SCOPE_PATH_UNKNOWN']);
    expect(problemCodes(baseContract({ scope: { user: 'order.customer.id' } }))).toEqual(['CONTRACT_SCOPE_PATH_UNKNOWN']);
    expect(problemCodes(baseContract({ sensitive: ['code', 'card.number'] }))).toEqual(['CONTRACT_SCOPE_PATH_UNKNOWN']);
  });

  it('documents every problem code it can produce', () => {
    expect(Object.keys(CONTRACT_PROBLEM_CODES).sort()).toEqual([
      'CONTRACT_DATA_REF',
      'CONTRACT_ERRORS_SCHEMA_INVALID',
      'CONTRACT_EXPRESSION_INVALID',
      'CONTRACT_INPUT_SCHEMA_INVALID',
      'CONTRACT_OUTPUT_SCHEMA_INVALID',
      'CONTRACT_REGEX_UNSAFE',
      'CONTRACT_REMOTE_REF',
      'CONTRACT_SCHEMA_INVALID',
      'CONTRACT_SCOPE_PATH_UNKNOWN',
      'CONTRACT_TOO_LARGE',
    ]);
  });

  it('validates __proto__ arguments as data without polluting Object.prototype', () => {
    const contract = compiled(lookupOrderContract);
    const args = JSON.parse('{"tenant_id":"t1","order_id":"ord_abcdef","__proto__":{"polluted":true}}') as unknown;
    const issues = contract.checkInput(args);
    expect(issues).toMatchObject([{ code: 'AXAG_UNKNOWN_PARAM', path: '$.__proto__' }]);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    const open = compiled(baseContract());
    expect(open.checkInput(JSON.parse('{"__proto__":{"polluted":true}}'))).toEqual([]);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('reads presence and properties from own keys only, never through the prototype', () => {
    const required = compiled(
      baseContract({
        input: {
          type: 'object',
          required: ['constructor', 'toString', '__proto__'],
          properties: { constructor: { type: 'integer' }, toString: { type: 'string' } },
        },
      }),
    );
    const paths = (json: string) => required.checkInput(JSON.parse(json)).map((i) => `${i.code} ${i.path}`);
    expect(paths('{}')).toEqual(['AXAG_MISSING_PARAM $.constructor', 'AXAG_MISSING_PARAM $.toString', 'AXAG_MISSING_PARAM $.__proto__']);
    expect(paths('{"constructor":1}')).toEqual(['AXAG_MISSING_PARAM $.toString', 'AXAG_MISSING_PARAM $.__proto__']);
    expect(paths('{"__proto__":{"constructor":1,"toString":"x"}}')).toEqual([
      'AXAG_MISSING_PARAM $.constructor',
      'AXAG_MISSING_PARAM $.toString',
    ]);
    expect(paths('{"constructor":1,"toString":"x","__proto__":{}}')).toEqual([]);
    // Declared but optional: {} does not carry Object.prototype's members as values to type-check.
    const optional = compiled(
      baseContract({
        input: {
          type: 'object',
          properties: { constructor: { type: 'integer' }, hasOwnProperty: { type: 'string' } },
          dependentRequired: { toString: ['constructor'] },
        },
      }),
    );
    expect(optional.checkInput({})).toEqual([]);
    expect(optional.checkInput(JSON.parse('{"toString":"x"}')).map((i) => `${i.code} ${i.path}`)).toEqual([
      'AXAG_MISSING_PARAM $.constructor',
    ]);
  });

  it('refuses a schema that declares "__proto__" (the validator would skip it and check nothing)', () => {
    const input = JSON.parse('{"type":"object","properties":{"__proto__":{"type":"string"}}}') as Record<string, unknown>;
    const result = compileContract(baseContract({ input }));
    expect(result.ok ? [] : result.problems).toEqual([
      {
        code: 'CONTRACT_INPUT_SCHEMA_INVALID',
        path: '$.input.properties.__proto__',
        message: expect.stringContaining('Rename the property'),
      },
    ]);
    const output = JSON.parse('{"type":"object","dependentRequired":{"__proto__":["a"]}}') as Record<string, unknown>;
    expect(problemCodes(baseContract({ output }))).toEqual(['CONTRACT_OUTPUT_SCHEMA_INVALID']);
    // Requiring it is fine (presence is checked on own keys), and so is any other odd name.
    expect(
      problemCodes(baseContract({ input: { type: 'object', required: ['__proto__'], properties: { constructor: { type: 'string' } } } })),
    ).toEqual([]);
  });

  it('evaluates conditions on arguments that have an own "constructor" key, and has() sees own keys only', () => {
    const contract = compiled(
      baseContract({
        preconditions: [
          { id: 'c', expression: '!has(args.constructor) || args.constructor > 0', message: 'm' },
          { id: 't', expression: '!has(args.toString) && !("valueOf" in args)', message: 'm' },
        ],
      }),
    );
    const run = (json: string) => contract.preconditions.map((c) => c.evaluate({ args: JSON.parse(json), context: {} }));
    expect(run('{}')).toEqual([
      { ok: true, holds: true },
      { ok: true, holds: true },
    ]);
    expect(run('{"constructor":2}')).toEqual([
      { ok: true, holds: true },
      { ok: true, holds: true },
    ]);
    expect(run('{"constructor":0}')).toEqual([
      { ok: true, holds: false },
      { ok: true, holds: true },
    ]);
    expect(run('{"toString":"x"}')[1]).toEqual({ ok: true, holds: false });
  });

  it('runs a catastrophic-looking pattern in linear time', () => {
    const contract = compiled(baseContract({ input: { type: 'object', properties: { s: { type: 'string', pattern: '^(a|aa)+$' } } } }));
    const hostile = `${'a'.repeat(50_000)}b`;
    expect(contract.checkInput({ s: hostile })).toMatchObject([{ code: 'AXAG_PATTERN_MISMATCH', path: '$.s' }]);
    expect(contract.checkInput({ s: 'a'.repeat(50_000) })).toEqual([]);
  });
});
