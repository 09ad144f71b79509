import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseDocument, type ParsedDocument } from './parse-document';
import { lintPolicy, POLICY_LINT_CODES } from './policy';
import { lintApprovalPolicy } from './rules/policy/approval-rules';
import { lintArgConstraints } from './rules/policy/arg-constraints';
import type { Diagnostic } from './types';

const BASE = `id: support-default
version: 1.1.0
description: What support agents may do.
capability:
  tools: ["orders.*", "payments.refund"]
  side_effect_ceiling: write
approval:
  rules:
    - tools: ["payments.*"]
      roles: [finance_approver]
      expires_in_seconds: 3600
      approvers_required: 1
arg_constraints:
  - tool: payments.refund
    key: currency
    allowed_values: [USD, EUR]
  - tool: orders.lookup
    key: order_id
    pattern: "^ord_[0-9]+$"
rules:
  - id: large-refunds
    tools: ["payments.refund"]
    when: "args.amount > 1000"
    decision: require_approval
    reason: Refunds over 1000 need a second pair of eyes.
    roles: [finance_approver]
  - id: notify-customer
    tools: ["orders.update"]
    decision: transform
    set: { "notify": true }
  - id: everything-else
    tools: ["*"]
    decision: allow
`;

function edit(text: string, from: string, to: string): string {
  if (!text.includes(from)) throw new Error(`test setup: ${JSON.stringify(from)} is not in the document`);
  return text.replace(from, () => to);
}

function positionOf(text: string, needle: string, nth = 1): { startLine: number; startColumn: number } {
  let offset = -1;
  for (let i = 0; i < nth; i++) offset = text.indexOf(needle, offset + 1);
  if (offset < 0) throw new Error(`test setup: ${JSON.stringify(needle)} is not in the document`);
  const before = text.slice(0, offset).split('\n');
  return { startLine: before.length, startColumn: before[before.length - 1]!.length + 1 };
}

function lint(text: string, previousVersion?: string, contracts?: readonly unknown[]): Diagnostic[] {
  return lintPolicy(parseDocument(text), {
    ...(previousVersion === undefined ? {} : { previousVersion }),
    ...(contracts ? { contracts } : {}),
  });
}

// At most 10 refunds per user per hour; no more than 1,000 in refunds per day without a person.
const LIMITS = `limits:
  - id: per-user
    tools: ["payments.refund"]
    per: user
    window: 1h
    max_calls: 10
  - id: daily-budget
    tools: ["payments.*"]
    per: tenant
    window: 1d
    max_sum: { path: amount, value: 1000 }
    when_exceeded: require_approval
    roles: [finance_approver]
`;
const WITH_LIMITS = `${BASE}${LIMITS}`;
const CONTRACTS = [
  { id: 'payments.refund', input: { type: 'object', properties: { amount: { type: 'number' }, currency: { type: 'string' } } } },
];

// A big refund in EUR: the `large-refunds` rule asks for approval.
const TESTS = `tests:
  - name: big refunds need approval
    tool: payments.refund
    side_effect_level: write
    arguments: { amount: 5000, currency: EUR }
    expect:
      decision: require_approval
      rule: large-refunds
`;

const SHADOW = '  - id: allow-all\n    tools: ["*"]\n    decision: allow\n  - id: large-refunds';

type Case = {
  code: keyof typeof POLICY_LINT_CODES;
  bad: string;
  good: string;
  /** Where the underline starts in `bad`: a needle (first occurrence) or [needle, nth]. */
  at?: string | [string, number];
  previousVersion?: string;
  /** Published contracts the linter sees. */
  contracts?: readonly unknown[];
};

const CASES: Case[] = [
  { code: 'POLICY_SCHEMA_INVALID', bad: edit(BASE, 'side_effect_ceiling: write', 'side_effect_ceiling: writes'), good: BASE, at: 'writes' },
  { code: 'POLICY_SCHEMA_INVALID', bad: edit(BASE, 'description:', 'descripton:'), good: BASE, at: 'descripton' },
  { code: 'POLICY_CONDITION_INVALID', bad: edit(BASE, '"args.amount > 1000"', '"args.amount >"'), good: BASE, at: '"args.amount >"' },
  { code: 'POLICY_CONDITION_INVALID', bad: edit(BASE, '"args.amount > 1000"', '"result.amount > 1000"'), good: BASE, at: '"result' },
  {
    code: 'POLICY_CONDITION_INVALID',
    bad: edit(BASE, '"args.amount > 1000"', '"args.note.matches(\'(a+)+$\')"'),
    good: BASE,
    at: '"args.note',
  },
  {
    code: 'POLICY_HISTORY_CALL_INVALID',
    bad: edit(BASE, '"args.amount > 1000"', `"history.average('payments.refund', 'user', '1h') > 3"`),
    good: edit(BASE, '"args.amount > 1000"', `"history.count('payments.refund', 'user', '1h') > 3"`),
    at: 'history.average',
  },
  {
    code: 'POLICY_CASE_FOLDING',
    bad: edit(BASE, '"args.amount > 1000"', `"args.currency.upperAscii() == 'EUR'"`),
    good: edit(BASE, '"args.amount > 1000"', `"args.currency == 'EUR'"`),
    at: 'upperAscii',
  },
  {
    code: 'POLICY_LIMIT_ID_DUPLICATE',
    bad: edit(WITH_LIMITS, 'id: daily-budget', 'id: per-user'),
    good: WITH_LIMITS,
    at: ['per-user', 2],
  },
  {
    code: 'POLICY_LIMIT_NO_ROLES',
    bad: edit(WITH_LIMITS, 'require_approval\n    roles: [finance_approver]\n', 'require_approval\n'),
    good: WITH_LIMITS,
    at: ['require_approval\n', 2],
  },
  {
    code: 'POLICY_HISTORY_UNKNOWN_PATH',
    bad: edit(WITH_LIMITS, 'path: amount', 'path: amount_cents'),
    good: WITH_LIMITS,
    at: 'amount_cents',
    contracts: CONTRACTS,
  },
  {
    code: 'POLICY_SUM_PATH_NOT_NUMERIC',
    bad: edit(WITH_LIMITS, 'path: amount', 'path: currency'),
    good: WITH_LIMITS,
    at: ['currency', 2],
    contracts: CONTRACTS,
  },
  { code: 'POLICY_RULE_ID_DUPLICATE', bad: edit(BASE, 'id: notify-customer', 'id: large-refunds'), good: BASE, at: ['large-refunds', 2] },
  {
    code: 'POLICY_RULE_NO_ROLES',
    bad: edit(BASE, 'eyes.\n    roles: [finance_approver]', 'eyes.\n    roles: []'),
    good: BASE,
    at: ['[]', 1],
  },
  {
    code: 'POLICY_RULE_NO_ROLES',
    bad: edit(edit(BASE, 'eyes.\n    roles: [finance_approver]', 'eyes.'), 'decision: require_approval', 'decision: escalate'),
    good: edit(BASE, 'decision: require_approval', 'decision: escalate'),
    at: 'escalate',
  },
  { code: 'POLICY_TRANSFORM_WITHOUT_SET', bad: edit(BASE, '    set: { "notify": true }\n', ''), good: BASE, at: 'transform' },
  { code: 'POLICY_TRANSFORM_WITHOUT_SET', bad: edit(BASE, 'set: { "notify": true }', 'set: {}'), good: BASE, at: '{}' },
  { code: 'POLICY_SET_WITHOUT_TRANSFORM', bad: edit(BASE, 'decision: transform', 'decision: deny'), good: BASE, at: ['set:', 1] },
  {
    code: 'POLICY_APPROVAL_NO_ROLES',
    bad: edit(BASE, 'roles: [finance_approver]\n      expires', 'roles: []\n      expires'),
    good: BASE,
    at: '[]',
  },
  {
    code: 'POLICY_APPROVAL_NO_ROLES',
    bad: edit(BASE, '      roles: [finance_approver]\n      expires', '      expires'),
    good: BASE,
    at: ['tools', 2],
  },
  {
    code: 'POLICY_APPROVERS_REQUIRED_INVALID',
    bad: edit(BASE, 'approvers_required: 1', 'approvers_required: 0'),
    good: edit(BASE, 'approvers_required: 1', 'approvers_required: 2'),
    at: ['0\n', 3],
  },
  {
    code: 'POLICY_ARG_CONSTRAINT_NO_RULE',
    bad: edit(BASE, '    allowed_values: [USD, EUR]\n', ''),
    good: BASE,
    at: 'tool: payments.refund',
  },
  {
    code: 'POLICY_ARG_CONSTRAINT_BOTH_RULES',
    bad: edit(BASE, '[USD, EUR]\n', '[USD, EUR]\n    pattern: "^[A-Z]{3}$"\n'),
    good: BASE,
    at: 'pattern: "^[A-Z]',
  },
  { code: 'POLICY_ARG_CONSTRAINT_EMPTY_VALUES', bad: edit(BASE, '[USD, EUR]', '[]'), good: edit(BASE, '[USD, EUR]', '[USD]'), at: '[]' },
  {
    code: 'POLICY_ARG_CONSTRAINT_DUPLICATE',
    bad: edit(BASE, 'tool: orders.lookup\n    key: order_id', 'tool: payments.refund\n    key: currency'),
    good: edit(BASE, 'tool: orders.lookup\n    key: order_id', 'tool: payments.refund\n    key: amount'),
    at: ['currency', 2],
  },
  {
    code: 'POLICY_REGEX_UNSAFE',
    bad: edit(BASE, '"^ord_[0-9]+$"', '"^(ord_)\\\\1$"'),
    good: edit(BASE, '"^ord_[0-9]+$"', '"^(ord_)+$"'),
    at: '"^(ord_)',
  },
  { code: 'POLICY_REGEX_UNSAFE', bad: edit(BASE, '"^ord_[0-9]+$"', '"^ord_(?=[0-9])"'), good: BASE, at: '"^ord_(' },
  {
    code: 'POLICY_DUPLICATE_TOOL_PATTERN',
    bad: edit(BASE, '"payments.refund"]\n  side', '"payments.refund", "orders.*"]\n  side'),
    good: BASE,
    at: ['"orders.*"', 2],
  },
  {
    code: 'POLICY_RULE_UNREACHABLE',
    bad: edit(BASE, '  - id: large-refunds', SHADOW),
    good: edit(BASE, '  - id: large-refunds', SHADOW.replace('decision: allow', 'when: "context.trusted"\n    decision: allow')),
    at: 'large-refunds',
  },
  {
    code: 'POLICY_RULE_UNREACHABLE',
    bad: edit(BASE, 'tools: ["orders.update"]', 'tools: ["payments.refund"]').replace('    when: "args.amount > 1000"\n', ''),
    good: edit(BASE, 'tools: ["orders.update"]', 'tools: ["payments.refund"]'),
    at: 'notify-customer',
  },
  {
    code: 'POLICY_VERSION_NOT_INCREASED',
    bad: BASE,
    good: edit(BASE, 'version: 1.1.0', 'version: 2.0.0'),
    previousVersion: '1.1.0',
    at: '1.1.0',
  },
  {
    code: 'POLICY_TEST_FAILED',
    bad: `${BASE}${TESTS.replace('decision: require_approval', 'decision: allow')}`,
    good: `${BASE}${TESTS}`,
    at: ['decision: allow', 2],
  },
];

describe('lintPolicy', () => {
  it('finds nothing in the base document', () => {
    expect(lint(BASE)).toEqual([]);
    expect(lint(WITH_LIMITS, undefined, CONTRACTS)).toEqual([]);
  });

  it('has a raising and a clean case for every registered code', () => {
    expect(new Set(CASES.map((c) => c.code))).toEqual(new Set(Object.keys(POLICY_LINT_CODES)));
  });

  it.each(CASES.map((c, i) => [`${c.code} #${i}`, c] as const))('%s', (_name, c) => {
    const raised = lint(c.bad, c.previousVersion, c.contracts).filter((d) => d.code === c.code);
    expect(raised.length).toBeGreaterThan(0);
    expect(raised[0]!.severity).toBe(POLICY_LINT_CODES[c.code].severity);
    if (c.at !== undefined) {
      const [needle, nth] = typeof c.at === 'string' ? [c.at, 1] : c.at;
      expect(raised[0]!.range).toMatchObject(positionOf(c.bad, needle, nth));
    }
    expect(lint(c.good, c.previousVersion, c.contracts).map((d) => d.code)).not.toContain(c.code);
  });

  it('lets a later deny through an earlier unconditional allow, but not through an earlier deny', () => {
    const rules = (first: string, second: string) =>
      `id: p\nversion: 1.0.0\nrules:\n  - id: first\n    tools: ["payments.*"]\n    decision: ${first}\n  - id: second\n    tools: ["payments.refund", "payments.void"]\n    decision: ${second}\n`;
    const unreachable = (text: string) =>
      lint(text)
        .filter((d) => d.code === 'POLICY_RULE_UNREACHABLE')
        .map((d) => d.path);
    expect(unreachable(rules('allow', 'deny'))).toEqual([]);
    expect(unreachable(rules('deny', 'deny'))).toEqual(['$.rules[1].id']);
    expect(unreachable(rules('allow', 'escalate\n    roles: [a]'))).toEqual(['$.rules[1].id']);
    // Only some of the later rule's tools are covered: it can still fire for the others.
    expect(unreachable(rules('allow', 'allow').replace('"payments.void"', '"orders.void"'))).toEqual([]);
    // A narrower earlier pattern does not cover a wider later one.
    expect(
      unreachable(
        rules('allow', 'allow').replace('"payments.*"', '"payments.refund"').replace('"payments.refund", "payments.void"', '"payments.*"'),
      ),
    ).toEqual([]);
  });

  it('works the same on JSON', () => {
    const text = JSON.stringify({ id: 'p', version: '1.0.0', approval: { rules: [{ tools: ['a.*'], roles: [] }] } }, null, 2);
    const [found] = lintPolicy(parseDocument(text, 'json'), {});
    expect(found).toMatchObject({ code: 'POLICY_APPROVAL_NO_ROLES', path: '$.approval.rules[0].roles', range: positionOf(text, '[]') });
  });

  it('exports the approval and argument-constraint checks for other documents', () => {
    const text =
      'approval_policy:\n  rules:\n    - tools: ["a.*"]\n      roles: []\npolicy:\n  arg_constraints:\n    - tool: a.b\n      key: c\n';
    const parsed = parseDocument(text);
    const root = parsed.value as Record<string, Record<string, unknown>>;
    expect(lintApprovalPolicy(root.approval_policy, ['approval_policy'], parsed.locate).map((d) => d.path)).toEqual([
      '$.approval_policy.rules[0].roles',
    ]);
    expect(
      lintArgConstraints(root.policy!.arg_constraints, ['policy', 'arg_constraints'], parsed.locate).map((d) => [
        d.code,
        d.range.startLine,
      ]),
    ).toEqual([['POLICY_ARG_CONSTRAINT_NO_RULE', 7]]);
  });
});

describe('lintPolicy on hostile input', () => {
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
        fc.anything({ withBigInt: true, withDate: true, withMap: true, withSet: true, withNullPrototype: true, withSparseArray: true }),
        (value) => {
          expect(Array.isArray(lintPolicy(stub(value), { previousVersion: '1.0.0' }))).toBe(true);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('never throws on mutations of a valid policy', () => {
    const valid = parseDocument(BASE).value as Record<string, unknown>;
    const sections = ['capability', 'approval', 'arg_constraints', 'rules', 'limits', 'id', 'version'];
    fc.assert(
      fc.property(fc.constantFrom(...sections), fc.jsonValue({ maxDepth: 4 }), (section, value) => {
        const text = JSON.stringify({ ...valid, [section]: value });
        expect(Array.isArray(lintPolicy(parseDocument(text, 'json'), {}))).toBe(true);
      }),
      { numRuns: 300 },
    );
  });
});
