import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { evidenceHash, evidenceHashCanonical, payloadDigest, type EvidenceContent } from './evidence-hash';

const text = fc.string({ maxLength: 40, unit: 'grapheme' });
const nullableText = fc.option(text, { nil: null });
const content: fc.Arbitrary<EvidenceContent> = fc.record({
  tenantId: text,
  seq: fc.integer({ min: 1, max: 2 ** 40 }),
  prevHash: fc.stringMatching(/^[0-9a-f]{64}$/),
  createdAt: fc.date({ min: new Date('2000-01-01'), max: new Date('2100-01-01'), noInvalidDate: true }),
  kind: fc.constantFrom('pre', 'post', 'approval_decision'),
  requestId: text,
  traceId: text,
  callId: text,
  w3cTraceparent: nullableText,
  apiKeyId: nullableText,
  actorUserId: nullableText,
  tool: text,
  contractVersion: nullableText,
  contractHash: nullableText,
  argsHash: text,
  idempotencyKey: nullableText,
  arguments: fc.option(fc.json(), { nil: null }),
  decision: fc.constantFrom('allow', 'deny', 'require_approval'),
  valid: fc.boolean(),
  errors: fc.json(),
  warnings: fc.json(),
  durationMs: fc.double({ min: 0, max: 1e7, noNaN: true, noDefaultInfinity: true }),
  policyId: nullableText,
  policyVersion: nullableText,
  policyRule: nullableText,
  policy: fc.option(fc.json(), { nil: null }),
  shadowDiffers: fc.boolean(),
  executionMs: fc.option(fc.double({ min: 0, max: 1e7, noNaN: true, noDefaultInfinity: true }), { nil: null }),
  payloadHash: fc.option(fc.stringMatching(/^[0-9a-f]{64}$/), { nil: null }),
  details: fc.option(fc.json(), { nil: null }),
  mcpServer: fc.option(fc.stringMatching(/^[a-z][a-z0-9_]{0,39}$/), { nil: null }),
  duplicateKey: fc.option(text, { nil: null }),
  lane: fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 63 })),
});

describe('evidenceHash', () => {
  it('equals the hash over the general canonical JSON for any record', () => {
    fc.assert(
      fc.property(content, (c) => evidenceHash(c) === evidenceHashCanonical(c)),
      { numRuns: 500 },
    );
  });

  it('writes every string and number as JSON.stringify does: escapes, control characters, lone surrogates, -0, exponents', () => {
    const anyUnit = fc.string({ maxLength: 24, unit: fc.integer({ min: 0, max: 0xffff }).map((c) => String.fromCharCode(c)) });
    const tricky = fc.constantFrom(
      '"',
      '\\',
      '\n',
      '\u0000',
      '\u001f',
      '\u007f',
      '\u2028',
      '\ud800',
      'a\udc00',
      '😀',
      '\ud83d\ude00"',
      '</script>',
    );
    const base = fc.sample(content, { numRuns: 1, seed: 19 })[0] as EvidenceContent;
    fc.assert(
      fc.property(
        fc.oneof(
          anyUnit,
          tricky,
          fc.tuple(text, tricky, text).map((parts) => parts.join('')),
        ),
        fc.oneof(fc.double({ noNaN: true, noDefaultInfinity: true }), fc.constantFrom(-0, 1e21, 1.5e-7, 2 ** 53 + 2, 5e-324)),
        (value, number) => {
          const c = { ...base, callId: value, policy: value, durationMs: number };
          return evidenceHash(c) === evidenceHashCanonical(c);
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('ignores fields outside the covered set, and changes with every covered one', () => {
    const base: EvidenceContent = {
      tenantId: 't',
      seq: 1,
      prevHash: '0'.repeat(64),
      createdAt: new Date('2026-11-22T00:00:00Z'),
      kind: 'pre',
      requestId: 'r',
      traceId: 'tr',
      callId: 'c',
      w3cTraceparent: null,
      apiKeyId: 'k',
      actorUserId: null,
      tool: 'x.y',
      contractVersion: '1.0.0',
      contractHash: 'h',
      argsHash: 'a',
      idempotencyKey: null,
      arguments: null,
      decision: 'allow',
      valid: true,
      errors: '[]',
      warnings: '[]',
      durationMs: 1.5,
    };
    const hash = evidenceHash(base);
    expect(evidenceHash({ ...base, id: 'ignored', hash: 'ignored' } as EvidenceContent)).toBe(hash);
    expect(evidenceHash({ ...base, decision: 'deny' })).not.toBe(hash);
    expect(evidenceHash({ ...base, durationMs: 1.501 })).not.toBe(hash);
    expect(evidenceHash({ ...base, w3cTraceparent: '' })).not.toBe(hash);
    expect(() => evidenceHash({ ...base, durationMs: Number.NaN })).toThrow(TypeError);
    expect(evidenceHash({ ...base, policyRule: 'deny-refunds' })).not.toBe(hash);
    expect(evidenceHash({ ...base, shadowDiffers: true })).not.toBe(hash);
    // The MCP server a call went through: covered when set, absent from records without one.
    expect(evidenceHash({ ...base, mcpServer: null })).toBe(hash);
    expect(evidenceHash({ ...base, mcpServer: 'github' })).not.toBe(hash);
    expect(evidenceHash({ ...base, mcpServer: 'github' })).not.toBe(evidenceHash({ ...base, mcpServer: 'gitlab' }));
  });

  it('hashes a record without the policy fields exactly as before they existed', () => {
    const before: EvidenceContent = {
      tenantId: 't',
      seq: 1,
      prevHash: '0'.repeat(64),
      createdAt: new Date('2026-11-22T00:00:00Z'),
      kind: 'pre',
      requestId: 'r',
      traceId: 'tr',
      callId: 'c',
      w3cTraceparent: null,
      apiKeyId: 'k',
      actorUserId: null,
      tool: 'x.y',
      contractVersion: '1.0.0',
      contractHash: 'h',
      argsHash: 'a',
      idempotencyKey: null,
      arguments: null,
      decision: 'allow',
      valid: true,
      errors: '[]',
      warnings: '[]',
      durationMs: 1.5,
    };
    // Printed by evidenceHash as it was before the policy fields were added.
    const legacy = 'dfa91b0e5efb9b9a8b4c2c22347a8e75b3bdaefa9a66224ca2b767ec71531274';
    expect(evidenceHash(before)).toBe(legacy);
    expect(
      evidenceHash({
        ...before,
        policyId: null,
        policyVersion: null,
        policyRule: null,
        policy: null,
        shadowDiffers: false,
        executionMs: null,
      }),
    ).toBe(legacy);
  });

  it('covers the payload digest instead of the raw arguments once a record has one, so purging them keeps the chain', () => {
    const base: EvidenceContent = {
      tenantId: 't',
      seq: 1,
      prevHash: '0'.repeat(64),
      createdAt: new Date('2026-11-22T00:00:00Z'),
      kind: 'pre',
      requestId: 'r',
      traceId: 'tr',
      callId: 'c',
      w3cTraceparent: null,
      apiKeyId: 'k',
      actorUserId: null,
      tool: 'x.y',
      contractVersion: '1.0.0',
      contractHash: 'h',
      argsHash: 'a',
      idempotencyKey: null,
      arguments: '{"amount":5}',
      decision: 'allow',
      valid: true,
      errors: '[]',
      warnings: '[]',
      durationMs: 1.5,
      payloadHash: payloadDigest('{"amount":5}', '{"context":{}}'),
    };
    const hash = evidenceHash(base);
    expect(evidenceHash({ ...base, arguments: null })).toBe(hash);
    expect(evidenceHash({ ...base, payloadHash: payloadDigest('{"amount":6}', '{"context":{}}') })).not.toBe(hash);
    // Without a digest (records from before it existed) the arguments themselves are covered.
    const legacy = { ...base, payloadHash: null };
    expect(evidenceHash({ ...legacy, arguments: null })).not.toBe(evidenceHash(legacy));
    expect(evidenceHash({ ...base, details: '{"role":"admin"}' })).not.toBe(hash);
  });

  it('digests both payload columns so that changing or removing either one alone shows', () => {
    const digest = payloadDigest('{"a":1}', '{"result":2}');
    expect(payloadDigest('{"a":1}', null)).not.toBe(digest);
    expect(payloadDigest(null, '{"result":2}')).not.toBe(digest);
    expect(payloadDigest('{"a":1}', '{"result":3}')).not.toBe(digest);
    expect(payloadDigest('{"a":1}', '{"result":2}')).toBe(digest);
  });
});
