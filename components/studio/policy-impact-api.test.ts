import { describe, expect, it } from 'vitest';
import { readPolicyImpact } from './policy-impact-api';

const outcome = { decision: 'allow', policy: 'support', rule: 'reads-ok', codes: [] };

describe('readPolicyImpact', () => {
  it('reads the answer as the API sends it', () => {
    const body = {
      policy: { id: 'support', version: '1.1.0' },
      replaces: '1.0.0',
      since: '2026-11-20T00:00:00.000Z',
      replayed: 6,
      notReplayable: 2,
      withoutArguments: 1,
      withoutContext: 0,
      refusedBeforePolicies: 1,
      redactedArguments: 0,
      changed: 1,
      transitions: [{ from: 'allow', to: 'deny', calls: 1 }],
      codes: [{ code: 'AXAG_RATE_LIMITED', added: 1, removed: 0 }],
      examples: [
        {
          evidenceId: 'ev1',
          callId: 'call-6',
          tool: 'orders.lookup',
          at: '2026-11-26T10:00:00.000Z',
          before: outcome,
          after: { decision: 'deny', policy: 'support', rule: 'two-lookups', codes: ['AXAG_RATE_LIMITED'] },
        },
      ],
      history: 'replayed_calls',
    };
    // `since` and `history` are not shown: the panel names the window and what history counts itself.
    const read: Record<string, unknown> = { ...readPolicyImpact(body) };
    expect({ ...read, since: body.since, history: body.history }).toEqual(body);
  });

  it('drops what it cannot show instead of trusting the shape', () => {
    const read = readPolicyImpact({
      replayed: -3,
      changed: '2',
      replaces: 7,
      transitions: [{ from: 'allow', to: 'maybe', calls: 1 }, 'x', { from: 'deny', to: 'allow', calls: 2 }],
      examples: [
        { callId: 'c1', at: '2026-11-26T10:00:00.000Z', before: outcome, after: { decision: 'nope' } },
        { callId: 'c2', at: '2026-11-26T10:00:00.000Z', before: outcome, after: { ...outcome, codes: ['A', 3] } },
        { at: 'x', before: outcome, after: outcome },
      ],
    });
    expect(read).toMatchObject({ replayed: 0, changed: 0, replaces: null, policy: { id: '', version: '' } });
    expect(read.transitions).toEqual([{ from: 'deny', to: 'allow', calls: 2 }]);
    expect(read.examples.map((e) => [e.callId, e.after.codes])).toEqual([['c2', ['A']]]);
    expect(readPolicyImpact(null).examples).toEqual([]);
  });
});
