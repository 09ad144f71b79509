import { describe, expect, it } from 'vitest';
import { traceOutcome } from './trace-outcome';

const pre = (decision: string) => ({ kind: 'pre', decision });
const post = (decision: string) => ({ kind: 'post', decision });
const decided = { kind: 'approval_decision', decision: 'approved' };

describe('traceOutcome', () => {
  it('an allowed call: passed, failed or not reported after it', () => {
    expect(traceOutcome([pre('allow'), post('allow')], [])).toEqual({
      call: 'allowed',
      approval: null,
      result: 'passed',
      summary: 'Allowed; its result passed the post-call checks.',
    });
    expect(traceOutcome([pre('allow'), post('deny')], [])).toMatchObject({ call: 'allowed', result: 'failed' });
    expect(traceOutcome([pre('allow')], [])).toMatchObject({ call: 'allowed', result: 'not_reported' });
    expect(traceOutcome([pre('transform'), post('allow')], []).summary).toBe(
      'Allowed with rewritten arguments; its result passed the post-call checks.',
    );
  });

  it('a denied call never ran', () => {
    expect(traceOutcome([pre('deny')], [])).toEqual({
      call: 'denied',
      approval: null,
      result: 'not_run',
      summary: 'Denied before it ran.',
    });
  });

  it('a held call: the latest validate/pre and the latest approval decide', () => {
    expect(traceOutcome([pre('require_approval')], [{ status: 'pending' }])).toMatchObject({
      call: 'held',
      approval: 'pending',
      result: 'not_run',
      summary: 'Held for approval; waiting for a decision.',
    });
    expect(traceOutcome([pre('require_approval'), decided], [{ status: 'expired' }]).summary).toBe(
      'Held for approval; nobody decided in time, so it did not run.',
    );
    expect(traceOutcome([pre('require_approval'), decided], [{ status: 'approved' }])).toMatchObject({
      call: 'held',
      approval: 'approved',
    });
    expect(traceOutcome([pre('require_approval'), decided, pre('allow'), post('allow')], [{ status: 'approved' }])).toEqual({
      call: 'allowed',
      approval: 'approved',
      result: 'passed',
      summary: 'Allowed after approval; its result passed the post-call checks.',
    });
    expect(traceOutcome([pre('escalate')], [{ status: 'denied' }]).summary).toBe(
      'Escalated for approval; the approver denied it, so it did not run.',
    );
  });

  it('a trace without validate/pre', () => {
    expect(traceOutcome([post('deny')], [])).toMatchObject({ call: null, result: 'failed' });
    expect(traceOutcome([{ kind: 'pipeline', decision: 'allow' }], [])).toMatchObject({ call: null, result: 'not_reported' });
  });
});
