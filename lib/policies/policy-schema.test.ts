import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  ApprovalPolicySchema,
  CapabilityPolicySchema,
  isExactPattern,
  POLICY_SCHEMA_ID,
  policyJsonSchema,
  PolicySchema,
  toolPatternMatches,
} from './policy-schema';

const POLICY = {
  id: 'support-default',
  version: '1.0.0',
  description: 'What support agents may do.',
  capability: { tools: ['orders.*', 'payments.refund'], side_effect_ceiling: 'write' },
  approval: { rules: [{ tools: ['payments.*'], roles: ['finance_approver'], expires_in_seconds: 3600, approvers_required: 1 }] },
  arg_constraints: [
    { tool: 'payments.refund', key: 'currency', allowed_values: ['USD', 'EUR'] },
    { tool: 'orders.lookup', key: 'order.id', pattern: '^ord_[0-9]+$' },
  ],
  rules: [
    {
      id: 'large-refunds',
      tools: ['payments.refund'],
      when: 'args.amount > 1000',
      decision: 'require_approval',
      reason: 'Big.',
      roles: ['finance_approver'],
    },
    { id: 'notify', tools: ['orders.update'], decision: 'transform', set: { notify: true, 'meta.source': { by: 'policy' } } },
  ],
};

function describedEverywhere(schema: unknown, path = '$'): string[] {
  if (typeof schema !== 'object' || schema === null) return [];
  const node = schema as Record<string, unknown>;
  const missing: string[] = [];
  for (const [key, sub] of Object.entries((node.properties ?? {}) as Record<string, Record<string, unknown>>)) {
    if (typeof sub.description !== 'string') missing.push(`${path}.${key}`);
    missing.push(...describedEverywhere(sub, `${path}.${key}`));
  }
  const items = node.items;
  if (items) missing.push(...describedEverywhere(items, `${path}[]`));
  return missing;
}

describe('PolicySchema', () => {
  it('accepts the documented example and rejects unknown fields', () => {
    expect(PolicySchema.safeParse(POLICY).success).toBe(true);
    expect(PolicySchema.safeParse({ ...POLICY, surprise: 1 }).success).toBe(false);
    expect(PolicySchema.safeParse({ ...POLICY, capability: { tools: [], extra: 1 } }).success).toBe(false);
    expect(PolicySchema.safeParse({ id: 'minimal', version: '0.1.0' }).success).toBe(true);
  });

  it.each([
    ['id', 'Support'],
    ['version', '1.0'],
    ['capability', { tools: ['Orders.*'] }],
    ['capability', { side_effect_ceiling: 'huge' }],
    ['capability', { tools: Array.from({ length: 201 }, (_, i) => `t.x${i}`) }],
    ['rules', [{ id: 'r', tools: [], decision: 'allow' }]],
    ['rules', [{ id: 'r', tools: ['a.b'], decision: 'maybe' }]],
    ['rules', [{ id: 'r', tools: ['a.b'], decision: 'transform', set: { '__proto__.polluted': true } }]],
    ['rules', [{ id: 'r', tools: ['a.b'], decision: 'transform', set: { 'a.constructor': 1 } }]],
    ['arg_constraints', [{ tool: 'a.b', key: 'x y', pattern: 'x' }]],
  ])('rejects a bad %s: %j', (field, value) => {
    expect(PolicySchema.safeParse({ ...POLICY, [field]: value }).success).toBe(false);
  });

  it('leaves empty role lists and approvers_required < 1 to the linter, which explains them', () => {
    const approval = { rules: [{ tools: ['a.*'], roles: [], approvers_required: 0 }] };
    expect(PolicySchema.safeParse({ ...POLICY, approval }).success).toBe(true);
  });

  it('exports the sections a surface embeds', () => {
    expect(CapabilityPolicySchema.safeParse({ ...POLICY.capability, arg_constraints: POLICY.arg_constraints }).success).toBe(true);
    expect(ApprovalPolicySchema.safeParse(POLICY.approval).success).toBe(true);
  });

  it('generates a 2020-12 JSON Schema with an $id and a description on every field', () => {
    const schema = policyJsonSchema();
    expect(schema.$schema).toBe('https://json-schema.org/draft/2020-12/schema');
    expect(schema.$id).toBe(POLICY_SCHEMA_ID);
    expect(describedEverywhere(schema)).toEqual([]);
    expect(Object.keys(schema.properties as object)).toEqual([
      'id',
      'version',
      'description',
      'capability',
      'approval',
      'arg_constraints',
      'rules',
      'limits',
      'tests',
    ]);
  });
});

describe('toolPatternMatches', () => {
  it.each([
    ['payments.refund', 'payments.refund', true],
    ['payments.refund', 'payments.refunds', false],
    ['payments.*', 'payments.refund', true],
    ['payments.*', 'payments.', true],
    ['payments.*', 'payment.refund', false],
    ['*', 'anything.at_all', true],
    ['*.refund', 'a.b.refund', true],
    ['a*b*c', 'axxbyyc', true],
    ['a*b*c', 'axxbyy', false],
    ['**', '', true],
    ['', '', true],
    ['', 'a', false],
  ])('%s ~ %s = %s', (pattern, id, expected) => {
    expect(toolPatternMatches(pattern, id)).toBe(expected);
  });

  const reference = (pattern: string, id: string) =>
    new RegExp(
      `^${pattern
        .split('*')
        .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
        .join('.*')}$`,
      's',
    ).test(id);

  it('agrees with a regex reference on random patterns', () => {
    const chars = fc.constantFrom('a', 'b', '.', '*');
    fc.assert(
      fc.property(
        fc.string({ unit: chars, maxLength: 8 }),
        fc.string({ unit: fc.constantFrom('a', 'b', '.'), maxLength: 10 }),
        (pattern, id) => {
          expect(toolPatternMatches(pattern, id)).toBe(reference(pattern, id));
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('decides pattern coverage: A matches B as text iff A covers every id B covers', () => {
    const chars = fc.constantFrom('a', 'b', '*');
    fc.assert(
      fc.property(fc.string({ unit: chars, maxLength: 5 }), fc.string({ unit: chars, maxLength: 5 }), (a, b) => {
        // Ids B covers, with each `*` standing for a few sample runs.
        const samples = ['', 'a', 'b', 'ab', 'ba', 'aab', 'bba'];
        let ids = [''];
        for (const char of b) ids = char === '*' ? ids.flatMap((p) => samples.map((s) => p + s)) : ids.map((p) => p + char);
        const coversSamples = ids.slice(0, 2000).every((id) => toolPatternMatches(a, id));
        if (toolPatternMatches(a, b)) expect(coversSamples).toBe(true);
        // A fresh character shows why it does not cover: B with `*` -> `#` is an id A misses.
        else expect(toolPatternMatches(a, b.replaceAll('*', '#'))).toBe(false);
      }),
      { numRuns: 1000 },
    );
  });

  it('runs in linear-ish time on adversarial patterns', () => {
    const started = performance.now();
    expect(toolPatternMatches('*a'.repeat(60) + 'b', 'a'.repeat(128))).toBe(false);
    expect(performance.now() - started).toBeLessThan(100);
  });

  it('isExactPattern', () => {
    expect(isExactPattern('payments.refund')).toBe(true);
    expect(isExactPattern('payments.*')).toBe(false);
  });
});
