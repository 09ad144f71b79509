import { readFileSync } from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { lintDocument } from '.';
import { parseDocument } from './parse-document';
import { lintPolicy } from './policy';
import type { Diagnostic } from './types';

/** The linter on limits and `history.*` conditions: what it finds, where, and in what words. */

const policy = (when: string, limits = '') =>
  `id: p\nversion: 1.0.0\nrules:\n  - id: r\n    tools: ["payments.refund"]\n    when: "${when}"\n    decision: deny\n${limits}`;

const CONTRACTS = [
  {
    id: 'payments.refund',
    input: {
      type: 'object',
      properties: {
        amount: { type: 'number' },
        cents: { type: 'integer' },
        currency: { type: 'string' },
        order_id: { type: 'string' },
        either: { anyOf: [{ type: 'string' }, { type: 'number' }] },
        money: { $ref: '#/$defs/money' },
        refund: { type: 'object', properties: { total: { type: 'number' } } },
        meta: { type: 'object' },
        tags: { enum: ['a', 'b'] },
      },
      $defs: { money: { type: 'number' } },
    },
  },
  { id: 'payments.capture', input: { type: 'object', properties: { value: { type: 'number' } } } },
  { id: 'accounts.export', input: { type: 'object', properties: { account_id: { type: 'string' } } } },
];

function lint(text: string, contracts: readonly unknown[] | null = CONTRACTS): Diagnostic[] {
  return lintPolicy(parseDocument(text), contracts ? { contracts } : {});
}

/** The underlined text of a diagnostic, on its (single) line. */
function underlined(text: string, d: Diagnostic): string {
  expect(d.range.startLine).toBe(d.range.endLine);
  return text.split('\n')[d.range.startLine - 1]!.slice(d.range.startColumn - 1, d.range.endColumn - 1);
}

function only(text: string, code: string, contracts?: readonly unknown[] | null): { message: string; underlined: string } {
  const found = lint(text, contracts);
  expect(found.map((d) => d.code)).toEqual([code]);
  return { message: found[0]!.message, underlined: underlined(text, found[0]!) };
}

describe('history calls in conditions', () => {
  it('accepts every history function in a `when` (they compile as policy conditions, not contract preconditions)', () => {
    const when = [
      "history.count('payments.refund', 'user', '1h') < 10",
      "history.count(['payments.*', 'orders.cancel'], 'key', '10s', 'deny') == 0",
      "history.sum('payments.refund', 'amount', 'tenant', '1d') + double(args.amount) <= 1000.0",
      "history.seconds_since('payments.refund', 'session', '5m') > 30",
      "history.called('payments.capture', 'session', '31d')",
      "history.called_with('accounts.export', ['account_id'], 'session', '7d')",
    ].join(' && ');
    expect(lint(policy(when))).toEqual([]);
  });

  it.each([
    [
      'an unknown function',
      "history.average('payments.refund', 'user', '1h') > 3",
      /^history\.average is not a history function: use history\.count, history\.sum, history\.seconds_since, history\.called or history\.called_with\.$/,
      "history.average('payments.refund', 'user', '1h')",
    ],
    [
      'a function read as a field',
      'history.count > 3',
      /^history\.count is a function: history\.count\(tools, scope, window\)/,
      'history.count',
    ],
    [
      'too few arguments',
      "history.count('payments.refund', 'user') > 3",
      /^history\.count: takes 3 or 4 arguments: history\.count\(tools, scope, window\) or history\.count\(tools, scope, window, decision\): int\.$/,
      "history.count('payments.refund', 'user')",
    ],
    [
      'a computed argument',
      "history.count(args.tool, 'user', '1h') > 3",
      /^history\.count: argument 1 must be written out \(a string or a list of strings\), not computed/,
      'args.tool',
    ],
    [
      'a computed list element',
      "history.called_with('accounts.export', ['account_id', args.k], 'session', '1h')",
      /argument 2 must be written out/,
      "['account_id', args.k]",
    ],
    [
      'a window of 90 days',
      "history.count('payments.refund', 'user', '90d') > 3",
      /^history\.count: The window "90d" is longer than 31 days, the history Toolgate keeps\.$/,
      "'90d'",
    ],
    [
      'a window in an unknown unit',
      "history.count('payments.refund', 'user', '1x') > 3",
      /^history\.count: "1x" is not a window: write a number and s, m, h or d, e\.g\. "10m" or "1h"\.$/,
      "'1x'",
    ],
    ['a window that is a number', "history.count('payments.refund', 'user', 60) > 3", /the window must be a string such as "1h"/, '60'],
    [
      'an unknown scope',
      "history.count('payments.refund', 'team', '1h') > 3",
      /^history\.count: the scope must be one of "key", "user", "session", "tenant"\.$/,
      "'team'",
    ],
    [
      'an unknown decision',
      "history.count('payments.refund', 'user', '1h', 'denied') > 3",
      /the decision must be one of allow, deny/,
      "'denied'",
    ],
    [
      'a bad tool pattern',
      "history.called('Payments Refund', 'user', '1h')",
      /"Payments Refund" is not a tool id or pattern/,
      "'Payments Refund'",
    ],
    [
      'two paths to sum',
      "history.sum('payments.refund', ['amount', 'cents'], 'user', '1h') > 3.0",
      /the second argument is one argument path/,
      "['amount', 'cents']",
    ],
    [
      'a path that is not dotted',
      "history.sum('payments.refund', 'a[0]', 'user', '1h') > 3.0",
      /"a\[0\]" is not a dotted argument path/,
      "'a[0]'",
    ],
  ])('finds %s, underlined where it goes wrong', (_name, when, message, at) => {
    const text = policy(when);
    const found = only(text, 'POLICY_HISTORY_CALL_INVALID');
    expect(found.message).toMatch(message);
    expect(found.underlined).toBe(at);
  });

  it('reports each bad call once and keeps POLICY_CONDITION_INVALID for what is not about history', () => {
    const text = policy("history.average('a', 'user', '1h') > 1 || history.count('a', 'team', '1h') > 1");
    expect(lint(text).map((d) => [d.code, underlined(text, d)])).toEqual([
      ['POLICY_HISTORY_CALL_INVALID', "history.average('a', 'user', '1h')"],
      ['POLICY_HISTORY_CALL_INVALID', "'team'"],
    ]);
    const typed = only(policy("history.count('a', 'user', '1h') > 'many'"), 'POLICY_CONDITION_INVALID');
    expect(typed.message).toMatch(/^CEL type error/);
    expect(only(policy('history > 1'), 'POLICY_CONDITION_INVALID').message).toMatch(/available variables: `args`, `context`, `history`/);
  });

  it('underlines the whole `when` when the condition is not written on one line as it is', () => {
    const text = `id: p\nversion: 1.0.0\nrules:\n  - id: r\n    tools: ["a"]\n    when: >-\n      history.count('a', 'user',\n      '1x') > 3\n    decision: deny\n`;
    const [found] = lint(text);
    expect(found).toMatchObject({ code: 'POLICY_HISTORY_CALL_INVALID', path: '$.rules[0].when', range: { startLine: 6, endLine: 9 } });
  });

  it('works on JSON', () => {
    const text = JSON.stringify(
      { id: 'p', version: '1.0.0', rules: [{ id: 'r', tools: ['a'], when: "history.count('a', 'crew', '1h') > 1", decision: 'deny' }] },
      null,
      2,
    );
    const result = lintDocument('policy', text, { format: 'json' });
    expect(result.valid).toBe(false);
    expect(result.diagnostics.map((d) => [d.code, underlined(text, d)])).toEqual([['POLICY_HISTORY_CALL_INVALID', "'crew'"]]);
  });
});

describe('limits', () => {
  const limit = (fields: string) => `id: p\nversion: 1.0.0\nlimits:\n  - id: l\n    tools: ["payments.refund"]\n${fields}`;

  it.each([
    ['1x', /^limits\[0\]\.window: Not a window: write a number and s, m, h or d, e\.g\. `10m` or `1h`\.$/],
    ['90d', /^limits\[0\]\.window: The window is longer than 31 days, the history Toolgate keeps\.$/],
  ])('says what is wrong with the window %s, once, on the window', (window, message) => {
    const text = limit(`    per: user\n    window: ${window}\n    max_calls: 1\n`);
    const found = only(text, 'POLICY_SCHEMA_INVALID');
    expect(found.message).toMatch(message);
    expect(found.underlined).toBe(window);
  });

  it('names the scopes for an unknown one', () => {
    const found = only(limit('    per: team\n    window: 1h\n    max_calls: 1\n'), 'POLICY_SCHEMA_INVALID');
    expect(found).toEqual({ message: expect.stringMatching(/"key"\|"user"\|"session"\|"tenant"/), underlined: 'team' });
  });

  it('finds a duplicated id and a soft limit nobody could approve', () => {
    const two = `${limit('    per: user\n    window: 1h\n    max_calls: 1\n')}  - id: l\n    tools: ["*"]\n    per: key\n    window: 1m\n    max_calls: 100\n`;
    expect(only(two, 'POLICY_LIMIT_ID_DUPLICATE')).toEqual({ message: 'Limit id "l" is already used by limits[0].', underlined: 'l' });
    const named = `${limit('    per: user\n    window: 1h\n    max_calls: 1\n')}rules:\n  - id: l\n    tools: ["*"]\n    decision: allow\n`;
    expect(only(named, 'POLICY_LIMIT_ID_DUPLICATE').message).toBe(
      'Limit id "l" is also the id of rules[0]: the evidence could not tell which one decided.',
    );
    const soft = limit('    per: user\n    window: 1h\n    max_calls: 1\n    when_exceeded: require_approval\n');
    expect(only(soft, 'POLICY_LIMIT_NO_ROLES')).toMatchObject({ underlined: 'require_approval' });
    expect(only(`${soft}    roles: []\n`, 'POLICY_LIMIT_NO_ROLES')).toMatchObject({ underlined: '[]' });
    expect(lint(`${soft}    roles: [finance]\n`)).toEqual([]);
    // A hard limit needs nobody.
    expect(lint(limit('    per: user\n    window: 1h\n    max_calls: 1\n    when_exceeded: deny\n'))).toEqual([]);
  });
});

describe('argument paths history reads, against the published contracts', () => {
  const budget = (path: string, tools = '["payments.refund"]') =>
    `id: p\nversion: 1.0.0\nlimits:\n  - id: b\n    tools: ${tools}\n    per: tenant\n    window: 1d\n    max_sum: { path: ${path}, value: 1000 }\n`;

  it('warns about a max_sum path the contract does not declare, on the path', () => {
    const found = only(budget('amount_cents'), 'POLICY_HISTORY_UNKNOWN_PATH');
    expect(found).toEqual({
      message: '"amount_cents" is not in the input schema of the contract of payments.refund: their calls add 0 to the sum.',
      underlined: 'amount_cents',
    });
    expect(lint(budget('amount_cents')).every((d) => d.severity === 'warning')).toBe(true);
    expect(only(budget('refund.totl'), 'POLICY_HISTORY_UNKNOWN_PATH').underlined).toBe('refund.totl');
  });

  it('is satisfied by declared, nested, referenced and free-form paths', () => {
    for (const path of ['amount', 'cents', 'refund.total', 'money', 'either', 'meta.anything'])
      expect(lint(budget(path)), path).toEqual([]);
  });

  it('warns about a summed path declared as something other than a number', () => {
    expect(only(budget('currency'), 'POLICY_SUM_PATH_NOT_NUMERIC')).toEqual({
      message: '"currency" is declared as string in the contract of payments.refund: only numbers add to a sum, so its calls add 0.',
      underlined: 'currency',
    });
    // An enum without a type, or an object with no declared members, says nothing certain.
    expect(lint(budget('tags'))).toEqual([]);
  });

  it('reads tool patterns: one declaring contract is enough, none is a finding; tools without contracts are not', () => {
    expect(lint(budget('amount', '["payments.*"]'))).toEqual([]);
    expect(only(budget('value_cents', '["payments.*"]'), 'POLICY_HISTORY_UNKNOWN_PATH').message).toBe(
      '"value_cents" is not in the input schema of any contract matching payments.*: their calls add 0 to the sum.',
    );
    expect(only(budget('amount', '["payments.refund", "payments.capture"]'), 'POLICY_HISTORY_UNKNOWN_PATH').message).toContain(
      'the contract of payments.capture',
    );
    expect(lint(budget('amount_cents', '["billing.charge"]'))).toEqual([]);
  });

  it('says nothing without the tenant contracts (the CLI lints files alone)', () => {
    expect(lint(budget('amount_cents'), null)).toEqual([]);
    expect(lint(budget('currency'), [])).toEqual([]);
  });

  it('checks history.sum and history.called_with paths, underlined in the condition', () => {
    const sum = policy("history.sum('payments.refund', 'amout', 'user', '1d') > 10.0");
    expect(only(sum, 'POLICY_HISTORY_UNKNOWN_PATH')).toEqual({
      message: '"amout" is not in the input schema of the contract of payments.refund: their calls add 0 to the sum.',
      underlined: "'amout'",
    });
    expect(only(policy("history.sum('payments.refund', 'currency', 'user', '1d') > 10.0"), 'POLICY_SUM_PATH_NOT_NUMERIC').underlined).toBe(
      "'currency'",
    );
    const sequence = policy("!history.called_with('accounts.export', ['account_id', 'acount'], 'session', '1h')");
    expect(only(sequence, 'POLICY_HISTORY_UNKNOWN_PATH')).toEqual({
      message:
        '"acount" is not in the input schema of the contract of accounts.export: their calls never match (`called_with` compares the value there).',
      underlined: "'acount'",
    });
    // called_with compares values of any type.
    expect(lint(policy("history.called_with('payments.refund', 'currency', 'session', '1h')"))).toEqual([]);
  });

  it('lints the examples of docs/policies.md clean, against contracts that declare what they read', () => {
    const doc = readFileSync(path.join(import.meta.dirname, '../../docs/policies.md'), 'utf8');
    const block = (first: string) => {
      const found = doc.split('```yaml\n').find((b) => b.startsWith(first));
      if (!found) throw new Error(`docs/policies.md has no yaml block starting with ${first}`);
      return found.slice(0, found.indexOf('```'));
    };
    const text = `id: refunds\nversion: 1.0.0\n${block('limits:')}${block('rules:')}`;
    const contracts = [
      ...CONTRACTS,
      { id: 'accounts.delete', input: { type: 'object', properties: { account_id: { type: 'string' } } } },
      { id: 'search.run', input: { type: 'object', properties: { q: { type: 'string' } } } },
    ];
    expect(lint(text, contracts)).toEqual([]);
  });
});

describe('test cases with a history, as the author types', () => {
  const tested = (decision: string) => `id: p
version: 1.0.0
limits:
  - { id: two-an-hour, tools: [orders.lookup], per: session, window: 1h, max_calls: 2 }
tests:
  - name: third in the session
    tool: orders.lookup
    context: { session_id: s1 }
    history: [{ tool: orders.lookup, seconds_ago: 10 }, { tool: orders.lookup, seconds_ago: 3600 }]
    expect: { decision: ${decision} }
`;

  it('reports a failing case as POLICY_TEST_FAILED on its expect, and nothing once it holds', () => {
    const text = tested('allow');
    const [found] = lint(text);
    expect(found).toMatchObject({
      code: 'POLICY_TEST_FAILED',
      message: 'Test "third in the session" fails: expected decision allow, got deny.',
      path: '$.tests[0].expect',
    });
    expect(lint(tested('deny'))).toEqual([]);
  });
});

describe('on hostile input', () => {
  it('never throws on arbitrary limits and conditions with contracts', () => {
    const arbitrary = fc.oneof(
      fc.jsonValue({ maxDepth: 3 }),
      fc.constantFrom('amount', 'a.b', '*', 'payments.*', "history.sum('*', 'amount', 'user', '1h') > 1.0"),
    );
    fc.assert(
      fc.property(
        fc.array(fc.dictionary(fc.constantFrom('id', 'tools', 'max_sum', 'path', 'when', 'when_exceeded', 'roles'), arbitrary)),
        (items) => {
          const text = JSON.stringify({ id: 'p', version: '1.0.0', limits: items, rules: items });
          expect(Array.isArray(lintPolicy(parseDocument(text, 'json'), { contracts: [...CONTRACTS, null, { id: 'x', input: 'y' }] }))).toBe(
            true,
          );
        },
      ),
      { numRuns: 300 },
    );
  });
});
