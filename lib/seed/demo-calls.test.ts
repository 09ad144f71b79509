import { describe, expect, it } from 'vitest';
import { DEMO_DAYS, planDemoCalls } from './demo-calls';

const HOUR = 3_600_000;
const START = Date.UTC(2026, 10, 27, 0, 17);

describe('planDemoCalls', () => {
  it('plans the same week for the same start, in time order, all in the past and within the week', () => {
    const plan = planDemoCalls(START);
    expect(planDemoCalls(START)).toEqual(plan);
    expect(plan.every((step, i) => i === 0 || step.at >= plan[i - 1]!.at)).toBe(true);
    expect(plan.at(-1)!.at).toBeLessThan(START);
    expect(plan[0]!.at).toBeGreaterThanOrEqual(START - DEMO_DAYS * 24 * HOUR);
  });

  // The week is planned hour by hour from the start, so what it holds depends on the hour the
  // demo first starts at: whatever that hour, the story has all its parts.
  it.each(Array.from({ length: 24 }, (_, h) => h))('starting at %i:17 UTC: a few hundred calls and every scripted part', (hour) => {
    const now = START + hour * HOUR;
    const plan = planDemoCalls(now);
    const pres = plan.filter((s) => s.kind === 'pre');
    expect(pres.length).toBeGreaterThanOrEqual(200);
    expect(pres.length).toBeLessThanOrEqual(400);
    expect(plan.filter((s) => s.kind === 'pre' && s.hold).map((s) => (s.kind === 'pre' ? s.hold : ''))).toEqual(
      expect.arrayContaining(['refund-approved', 'refund-denied', 'credit-pending']),
    );
    // Each decision comes after the call it decides, and within the refund contract's 15 minutes.
    for (const decide of plan.filter((s) => s.kind === 'decide')) {
      const held = plan.find((s) => s.kind === 'pre' && s.hold === (decide.kind === 'decide' ? decide.hold : ''))!;
      expect(decide.at - held.at).toBeGreaterThan(0);
      expect(decide.at - held.at).toBeLessThan(15 * 60_000);
    }
    // Every post follows a pre of the same call.
    const calls = new Map(pres.map((s) => [s.kind === 'pre' ? s.request.call_id : '', s.at]));
    for (const post of plan.filter((s) => s.kind === 'post')) {
      const callId = post.kind === 'post' ? post.callId : '';
      expect(calls.get(callId)).toBeLessThan(post.at);
    }
    // The last hour's burst of malformed order ids, for the overview's spike.
    const lastHour = pres.filter((s) => s.at >= now - HOUR && s.kind === 'pre' && String(s.request.arguments.order_id).startsWith('ORD-'));
    expect(lastHour.length).toBeGreaterThanOrEqual(9);
  });
});
