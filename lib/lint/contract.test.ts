import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compileContract } from '../contracts/compile-contract';
import { EXAMPLE_CONTRACTS } from '../contracts/examples';
import { segmentsOfJsonPath } from './json-path-segments';
import { CONTRACT_LINT_CODES, lintContract } from './contract';
import { parseDocument, type ParsedDocument } from './parse-document';
import type { Diagnostic } from './types';

const BASE = `id: payments.refund
version: 1.1.0
description: Refunds part or all of a captured payment.
owner: team-payments
input:
  type: object
  required: [payment_id, amount]
  properties:
    tenant_id: { type: string }
    payment_id: { type: string, pattern: "^pay_[a-z0-9]+$" }
    amount: { type: integer, minimum: 1, maximum: 100000 }
    currency: { enum: [USD, EUR] }
annotations:
  kind: mutation
  side_effect_level: external
  idempotent: false
  approval_required: true
  approver_roles: [finance]
scope:
  tenant: tenant_id
preconditions:
  - id: positive
    expression: args.amount > 0
    message: The amount must be positive.
`;

function edit(text: string, from: string, to: string): string {
  if (!text.includes(from)) throw new Error(`test setup: ${JSON.stringify(from)} is not in the document`);
  return text.replace(from, () => to);
}

/** 1-based line and column of the `nth` occurrence of `needle`: where an underline must start. */
function positionOf(text: string, needle: string, nth = 1): { startLine: number; startColumn: number } {
  let offset = -1;
  for (let i = 0; i < nth; i++) offset = text.indexOf(needle, offset + 1);
  if (offset < 0) throw new Error(`test setup: ${JSON.stringify(needle)} is not in the document`);
  const before = text.slice(0, offset).split('\n');
  return { startLine: before.length, startColumn: before[before.length - 1]!.length + 1 };
}

function lint(text: string, previousVersion?: string): Diagnostic[] {
  return lintContract(parseDocument(text), previousVersion === undefined ? {} : { previousVersion });
}

const ALIASES = `${BASE}argument_aliases:\n  paymentId: payment_id\n`;
const BIG = (n: number) => edit(BASE, '  type: object\n', `  type: object\n  description: ${'x'.repeat(n)}\n`);

type Case = {
  code: keyof typeof CONTRACT_LINT_CODES;
  bad: string;
  good: string;
  /** Where the underline starts in `bad`: a needle (first occurrence) or [needle, nth]. */
  at?: string | [string, number];
  previousVersion?: string;
};

const CASES: Case[] = [
  { code: 'CONTRACT_SCHEMA_INVALID', bad: `${BASE}surprise: 1\n`, good: BASE, at: 'surprise' },
  { code: 'CONTRACT_SCHEMA_INVALID', bad: edit(BASE, 'kind: mutation', 'kind: mutate'), good: BASE, at: 'mutate' },
  { code: 'CONTRACT_SCHEMA_INVALID', bad: edit(BASE, 'owner: team-payments\n', ''), good: BASE, at: 'id' },
  { code: 'CONTRACT_TOO_LARGE', bad: BIG(270_000), good: BIG(1000), at: 'id' },
  { code: 'CONTRACT_INPUT_SCHEMA_INVALID', bad: edit(BASE, 'type: object', 'type: objekt'), good: BASE, at: 'type: objekt' },
  {
    code: 'CONTRACT_OUTPUT_SCHEMA_INVALID',
    bad: `${BASE}output: { type: 5 }\n`,
    good: `${BASE}output: { type: object }\n`,
    at: 'type: 5',
  },
  {
    code: 'CONTRACT_ERRORS_SCHEMA_INVALID',
    bad: `${BASE}errors: { required: code }\n`,
    good: `${BASE}errors: { required: [code] }\n`,
    at: 'required: code',
  },
  { code: 'CONTRACT_EXPRESSION_INVALID', bad: edit(BASE, 'args.amount > 0', 'args.amount >'), good: BASE, at: 'args.amount >' },
  { code: 'CONTRACT_EXPRESSION_INVALID', bad: edit(BASE, 'args.amount > 0', 'user.amount > 0'), good: BASE, at: 'user.amount' },
  { code: 'CONTRACT_SCOPE_PATH_UNKNOWN', bad: edit(BASE, 'tenant: tenant_id', 'tenant: tenant'), good: BASE, at: ['tenant', 3] },
  { code: 'CONTRACT_REGEX_UNSAFE', bad: edit(BASE, '"^pay_[a-z0-9]+$"', '"^(?!x)pay_$"'), good: BASE, at: '"^(?!x)' },
  {
    code: 'CONTRACT_REGEX_UNSAFE',
    bad: edit(BASE, '  properties:\n', '  patternProperties: { "^(a)\\\\1$": {} }\n  properties:\n'),
    good: edit(BASE, '  properties:\n', '  patternProperties: { "^(a)b$": {} }\n  properties:\n'),
    at: '"^(a)',
  },
  {
    code: 'CONTRACT_REMOTE_REF',
    bad: edit(BASE, '    currency:', '    other: { $ref: "https://schemas.test/s.json" }\n    currency:'),
    good: edit(BASE, '    currency:', '    other: { $ref: "#/properties/amount" }\n    currency:'),
    at: '"https://',
  },
  {
    // A reference to the $id of a schema embedded in the document is local; one nobody embeds is not.
    code: 'CONTRACT_REMOTE_REF',
    bad: edit(
      BASE,
      '    currency:',
      '    other: { $ref: "urn:test:money" }\n    money: { $id: "urn:test:cash", type: integer }\n    currency:',
    ),
    good: edit(
      BASE,
      '    currency:',
      '    other: { $ref: "urn:test:money" }\n    money: { $id: "urn:test:money", type: integer }\n    currency:',
    ),
    at: '"urn:test:money"',
  },
  {
    code: 'CONTRACT_DATA_REF',
    bad: edit(BASE, 'maximum: 100000', 'maximum: { $data: "1/minimum" }'),
    good: edit(BASE, 'maximum: 100000', 'maximum: 100001'),
    at: '$data',
  },
  {
    code: 'CONTRACT_REQUIRED_NOT_IN_PROPERTIES',
    bad: edit(BASE, '[payment_id, amount]', '[payment_id, amount, currrency]'),
    good: edit(BASE, '[payment_id, amount]', '[payment_id, amount, currency]'),
    at: 'currrency',
  },
  {
    code: 'CONTRACT_MIN_GREATER_THAN_MAX',
    bad: edit(BASE, 'minimum: 1,', 'minimum: 100001,'),
    good: edit(BASE, 'minimum: 1,', 'minimum: 100000,'),
    at: 'minimum',
  },
  {
    code: 'CONTRACT_EMPTY_ENUM',
    bad: edit(BASE, 'enum: [USD, EUR]', 'enum: []'),
    good: edit(BASE, 'enum: [USD, EUR]', 'enum: [USD]'),
    at: '[]',
  },
  {
    code: 'CONTRACT_UNKNOWN_FORMAT',
    bad: edit(BASE, 'tenant_id: { type: string }', 'tenant_id: { type: string, format: emial }'),
    good: edit(BASE, 'tenant_id: { type: string }', 'tenant_id: { type: string, format: email }'),
    at: 'emial',
  },
  {
    code: 'CONTRACT_CONDITION_UNKNOWN_ARGUMENT',
    bad: edit(BASE, 'args.amount > 0', 'args.amount > 0 && args.amout < 9'),
    good: edit(BASE, 'args.amount > 0', 'args.amount > 0 && args.amount < 9'),
    at: 'args.amout',
  },
  {
    code: 'CONTRACT_CASE_FOLDING',
    bad: edit(BASE, 'args.amount > 0', 'args.amount > 0 && args.tenant_id.lowerAscii() != "acme"'),
    good: edit(BASE, 'args.amount > 0', 'args.amount > 0 && args.tenant_id != "acme"'),
    at: 'lowerAscii',
  },
  { code: 'CONTRACT_APPROVAL_NO_ROLES', bad: edit(BASE, 'approver_roles: [finance]', 'approver_roles: []'), good: BASE, at: '[]' },
  { code: 'CONTRACT_APPROVAL_NO_ROLES', bad: edit(BASE, '  approver_roles: [finance]\n', ''), good: BASE, at: 'approval_required' },
  {
    code: 'CONTRACT_IDEMPOTENCY_STRATEGY_MISSING',
    bad: edit(BASE, 'idempotent: false', 'idempotent: true'),
    good: edit(BASE, 'idempotent: false', 'idempotent: true\n  idempotency_strategy: key'),
    at: 'true',
  },
  { code: 'CONTRACT_DEPRECATED_ARG_ALIAS', bad: ALIASES, good: BASE, at: 'paymentId' },
  {
    code: 'CONTRACT_ALIAS_TARGET_UNKNOWN',
    bad: edit(ALIASES, 'paymentId: payment_id', 'paymentId: payment'),
    good: ALIASES,
    at: ['payment\n', 1],
  },
  {
    code: 'CONTRACT_ALIAS_SHADOWS_PROPERTY',
    bad: edit(ALIASES, 'paymentId: payment_id', 'amount: payment_id'),
    good: ALIASES,
    at: ['amount: payment_id', 1],
  },
  {
    code: 'CONTRACT_VERSION_NOT_INCREASED',
    bad: BASE,
    good: edit(BASE, 'version: 1.1.0', 'version: 1.2.0'),
    previousVersion: '1.1.0',
    at: '1.1.0',
  },
  {
    code: 'CONTRACT_TEST_FAILED',
    bad: `${BASE}tests:\n  - name: small refund\n    arguments: { tenant_id: acme, payment_id: pay_1, amount: 5 }\n    context: { tenant_id: acme }\n    expect: { decision: allow }\n`,
    good: `${BASE}tests:\n  - name: small refund\n    arguments: { tenant_id: acme, payment_id: pay_1, amount: 5 }\n    context: { tenant_id: acme }\n    expect: { decision: require_approval, errors: [AXAG_APPROVAL_MISSING] }\n`,
    at: '{ decision: allow }',
  },
  {
    code: 'CONTRACT_VERSION_NOT_INCREASED',
    bad: edit(BASE, 'version: 1.1.0', 'version: 1.0.9'),
    good: edit(BASE, 'version: 1.1.0', 'version: 1.1.1-rc.1'),
    previousVersion: '1.1.0',
  },
];

describe('lintContract', () => {
  it('finds nothing in the base document', () => {
    expect(lint(BASE)).toEqual([]);
  });

  it('has a raising and a clean case for every registered code', () => {
    expect(new Set(CASES.map((c) => c.code))).toEqual(new Set(Object.keys(CONTRACT_LINT_CODES)));
  });

  it.each(CASES.map((c, i) => [`${c.code} #${i}`, c] as const))('%s', (_name, c) => {
    const raised = lint(c.bad, c.previousVersion).filter((d) => d.code === c.code);
    expect(raised.length).toBeGreaterThan(0);
    expect(raised[0]!.severity).toBe(CONTRACT_LINT_CODES[c.code].severity);
    expect(raised[0]!.target).toBe('document');
    if (c.at !== undefined) {
      const [needle, nth] = typeof c.at === 'string' ? [c.at, 1] : c.at;
      expect(raised[0]!.range).toMatchObject(positionOf(c.bad, needle, nth));
    }
    expect(lint(c.good, c.previousVersion).map((d) => d.code)).not.toContain(c.code);
  });

  it('underlines the exact argument reference inside a condition, and the whole value when it is escaped', () => {
    const plain = edit(BASE, 'args.amount > 0', 'args.amount > 0 && args.order.total < 9');
    const [found] = lint(plain).filter((d) => d.code === 'CONTRACT_CONDITION_UNKNOWN_ARGUMENT');
    expect(found!.range).toEqual({
      ...positionOf(plain, 'args.order'),
      endLine: 23,
      endColumn: positionOf(plain, 'args.order').startColumn + 'args.order.total'.length,
    });
    expect(found!.message).toContain('args.order');
    const escaped = edit(BASE, 'expression: args.amount > 0', 'expression: "args.amout > 0 && \\"a\\" != \\"b\\""');
    const [whole] = lint(escaped).filter((d) => d.code === 'CONTRACT_CONDITION_UNKNOWN_ARGUMENT');
    expect(whole!.range).toMatchObject(positionOf(escaped, '"args.amout'));
  });

  it('follows nested and combined schemas when resolving condition arguments', () => {
    const nested = edit(
      BASE,
      '    currency: { enum: [USD, EUR] }\n',
      '    currency: { enum: [USD, EUR] }\n    lines: { type: array, items: { $ref: "#/$defs/line" } }\n    meta: { type: object }\n',
    ).replace('  properties:\n', '  $defs: { line: { type: object, properties: { sku: { type: string } } } }\n  properties:\n');
    const known = 'args.lines[0].sku != "" && args.meta.anything == 1 && args.lines.all(l, l.sku != "")';
    expect(lint(edit(nested, 'args.amount > 0', known)).map((d) => d.code)).toEqual([]);
    const unknown = lint(edit(nested, 'args.amount > 0', 'args.lines[0].skew != ""'));
    expect(unknown.map((d) => [d.code, d.message.includes('args.lines[0].skew')])).toEqual([['CONTRACT_CONDITION_UNKNOWN_ARGUMENT', true]]);
  });

  it('reports a deep schema finding at its exact path, in JSON too', () => {
    const document = JSON.parse(JSON.stringify(EXAMPLE_CONTRACTS[0])) as Record<string, unknown>;
    document.input = {
      type: 'object',
      properties: { a: { type: 'array', prefixItems: [{ type: 'string', minLength: 5, maxLength: 2 }] } },
    };
    const text = JSON.stringify(document, null, 2);
    const found = lintContract(parseDocument(text, 'json'), {}).filter((d) => d.code === 'CONTRACT_MIN_GREATER_THAN_MAX');
    expect(found.map((d) => d.path)).toEqual(['$.input.properties.a.prefixItems[0].minLength']);
    expect(found[0]!.range).toMatchObject(positionOf(text, '"minLength"'));
  });

  it('still reports expression and scope problems while the document does not conform yet', () => {
    const text = edit(edit(BASE, 'owner: team-payments\n', ''), 'args.amount > 0', 'args.amount >').replace(
      'tenant: tenant_id',
      'tenant: tenant',
    );
    expect(
      lint(text)
        .map((d) => d.code)
        .sort(),
    ).toEqual(['CONTRACT_EXPRESSION_INVALID', 'CONTRACT_SCHEMA_INVALID', 'CONTRACT_SCOPE_PATH_UNKNOWN']);
  });

  it('gives schemas too large to compile per keystroke the same compiler findings', () => {
    const broken = (text: string) =>
      edit(edit(edit(text, 'type: object', 'type: objekt'), 'args.amount > 0', 'args.amount >'), 'tenant: tenant_id', 'tenant: tenant');
    const many = Array.from({ length: 1000 }, (_, i) => `    p_${i}: { type: string }\n`).join('');
    const large = edit(BASE, '    currency:', `${many}    currency:`);
    const codes = (text: string) => [...new Set(lint(text).map((d) => d.code))].sort();
    expect(codes(large)).toEqual([]);
    expect(codes(broken(large))).toEqual(codes(broken(BASE)));
    expect(codes(broken(BASE))).toEqual(['CONTRACT_EXPRESSION_INVALID', 'CONTRACT_INPUT_SCHEMA_INVALID', 'CONTRACT_SCOPE_PATH_UNKNOWN']);
    // Size and depth bounds hold on that path too, and while the document does not conform.
    expect(codes(edit(BIG(270_000), 'owner: team-payments\n', ''))).toEqual(['CONTRACT_SCHEMA_INVALID', 'CONTRACT_TOO_LARGE']);
    let deep = '{}';
    for (let i = 0; i < 50; i++) deep = `{ "not": ${deep} }`;
    expect(codes(edit(BASE, '  type: object\n', `  type: object\n  allOf: [${deep}]\n`))).toEqual(['CONTRACT_TOO_LARGE']);
    expect(codes(edit(edit(BASE, '  type: object\n', `  type: object\n  allOf: [${deep}]\n`), 'owner: team-payments\n', ''))).toEqual([
      'CONTRACT_SCHEMA_INVALID',
      'CONTRACT_TOO_LARGE',
    ]);
  });

  it('reports a regex the compiler also refuses once, with the sharper range', () => {
    const text = edit(BASE, '"^pay_[a-z0-9]+$"', '"^(?!x)pay_$"');
    expect(lint(text).filter((d) => d.code === 'CONTRACT_REGEX_UNSAFE')).toHaveLength(1);
  });

  it('lints every example contract without errors', () => {
    for (const example of EXAMPLE_CONTRACTS) {
      const errors = lintContract(parseDocument(JSON.stringify(example, null, 2), 'json'), {}).filter((d) => d.severity === 'error');
      expect(errors).toEqual([]);
    }
  });

  it('maps compiler paths back to document segments, quoted keys included', () => {
    const root = { a: { 'x.y': [{ "it's": 1 }], x: { y: 2 } } };
    expect(segmentsOfJsonPath(root, "$.a['x.y'][0]['it\\'s']")).toEqual(['a', 'x.y', 0]);
    expect(segmentsOfJsonPath(root, "$.a['x.y'][0]['it's']")).toEqual(['a', 'x.y', 0, "it's"]);
    expect(segmentsOfJsonPath(root, '$.a.x.y')).toEqual(['a', 'x', 'y']);
    expect(segmentsOfJsonPath(root, '$.a.missing.deeper')).toEqual(['a']);
    expect(segmentsOfJsonPath(root, 'nonsense')).toEqual([]);
  });
});

describe('lintContract on hostile input', () => {
  const stub = (value: unknown): ParsedDocument => ({
    format: 'json',
    text: '',
    value,
    diagnostics: [],
    locate: () => ({ startLine: 1, startColumn: 1, endLine: 1, endColumn: 1 }),
    rangeOfOffsets: () => ({ startLine: 1, startColumn: 1, endLine: 1, endColumn: 1 }),
  });

  it('never throws on arbitrary values', () => {
    fc.assert(
      fc.property(
        fc.anything({
          withBigInt: true,
          withDate: true,
          withMap: true,
          withSet: true,
          withNullPrototype: true,
          withTypedArray: true,
          withSparseArray: true,
        }),
        (value) => {
          expect(Array.isArray(lintContract(stub(value), { previousVersion: '1.0.0' }))).toBe(true);
        },
      ),
      { numRuns: 300 },
    );
  });

  const valid = parseDocument(`${BASE}argument_aliases:\n  paymentId: payment_id\n`).value as Record<string, unknown>;
  const paths: (string | number)[][] = [];
  const collect = (value: unknown, path: (string | number)[]) => {
    paths.push(path);
    if (Array.isArray(value)) value.forEach((v, i) => collect(v, [...path, i]));
    else if (typeof value === 'object' && value !== null) for (const [k, v] of Object.entries(value)) collect(v, [...path, k]);
  };
  collect(valid, []);

  function mutate(path: (string | number)[], replacement: unknown): unknown {
    if (path.length === 0) return replacement;
    const copy = structuredClone(valid);
    let parent: Record<string | number, unknown> = copy;
    for (const segment of path.slice(0, -1)) parent = parent[segment] as Record<string | number, unknown>;
    parent[path[path.length - 1]!] = replacement;
    return copy;
  }

  it('never throws on mutations of a valid contract, and flags everything the compiler refuses', () => {
    const replacement = fc.oneof(
      fc.jsonValue({ maxDepth: 3 }),
      fc.constantFrom('', '(a+)+\\1', 'args.x.y.z > 1', '#/$defs/none', 'https://x.test', '__proto__', -1, 1e308),
    );
    fc.assert(
      fc.property(fc.constantFrom(...paths), replacement, (path, value) => {
        const text = JSON.stringify(mutate(path, value), null, 2);
        const diagnostics = lintContract(parseDocument(text, 'json'), { previousVersion: '1.0.0' });
        expect(Array.isArray(diagnostics)).toBe(true);
        const compiled = compileContract(JSON.parse(text));
        if (!compiled.ok) expect(diagnostics.some((d) => d.severity === 'error')).toBe(true);
      }),
      { numRuns: 400 },
    );
  });
});
