import { beforeAll, describe, expect, it } from 'vitest';
import { createTestTenant } from '@/lib/testing/fixtures';
import { createApiKey, revokeApiKey } from '@/lib/auth/api-keys';
import { getOverview } from './get-overview';
import { seedEvidenceAt, type SeededRecord } from './seed-evidence-at';

// A fixed "now": the windows are [11:30, 12:30) today and yesterday for the hour, and
// [12:30 yesterday, 12:30 today) and the 24 hours before for the day.
const NOW = new Date('2026-11-20T12:30:00.000Z');
const at = (iso: string) => new Date(iso);

let tenantId: string;
let otherId: string;

beforeAll(async () => {
  tenantId = (await createTestTenant()).tenant.id;
  otherId = (await createTestTenant()).tenant.id;
  await seedEvidenceAt(tenantId, [
    // 48 h and a millisecond before now: in no window.
    { at: at('2026-11-18T12:29:59.999Z'), decision: 'deny', codes: ['AXAG_TOO_OLD'] },
    // The day before, outside its last-but-one hour: the window's first instant counts.
    { at: at('2026-11-18T12:30:00.000Z') },
    { at: at('2026-11-18T20:00:00.000Z') },
    { at: at('2026-11-19T03:00:00.000Z') },
    { at: at('2026-11-19T05:00:00.000Z'), kind: 'post', decision: 'deny', codes: ['AXAG_OUTPUT_SCHEMA'] },
    // The same hour yesterday, [11:30, 12:30) on the 19th.
    { at: at('2026-11-19T11:30:00.000Z'), decision: 'deny', codes: ['AXAG_PATTERN_MISMATCH'] },
    { at: at('2026-11-19T12:00:00.000Z') },
    { at: at('2026-11-19T12:10:00.000Z'), kind: 'post' },
    // The last 24 hours before the last hour: from 12:30 yesterday (included) to 11:30 today.
    { at: at('2026-11-19T12:30:00.000Z'), decision: 'deny', codes: ['AXAG_PATTERN_MISMATCH'] },
    { at: at('2026-11-19T18:00:00.000Z'), decision: 'escalate', codes: ['AXAG_APPROVAL_MISSING'] },
    { at: at('2026-11-20T02:00:00.000Z'), shadowDiffers: true },
    { at: at('2026-11-20T09:00:00.000Z') },
    { at: at('2026-11-20T10:00:00.000Z'), kind: 'post', decision: 'deny', codes: ['AXAG_OUTPUT_SCHEMA'] },
    // An approval decision is not a call.
    { at: at('2026-11-20T10:30:00.000Z'), kind: 'approval_decision', decision: 'approved' },
    // The last hour, [11:30, 12:30) today.
    { at: at('2026-11-20T11:30:00.000Z'), decision: 'deny', codes: ['AXAG_PATTERN_MISMATCH', 'AXAG_REQUIRED_MISSING'] },
    { at: at('2026-11-20T11:45:00.000Z'), decision: 'deny', codes: ['AXAG_PATTERN_MISMATCH'] },
    { at: at('2026-11-20T12:00:00.000Z'), decision: 'require_approval', codes: ['AXAG_APPROVAL_MISSING'] },
    { at: at('2026-11-20T12:10:00.000Z') },
    { at: at('2026-11-20T12:20:00.000Z'), shadowDiffers: true },
    { at: at('2026-11-20T12:21:00.000Z'), kind: 'post' },
    { at: at('2026-11-20T12:25:00.000Z'), kind: 'post', decision: 'deny', codes: ['AXAG_OUTPUT_SCHEMA'] },
    { at: at('2026-11-20T12:29:59.999Z'), kind: 'post', decision: 'deny', codes: ['AXAG_OUTPUT_SCHEMA'] },
    // Now itself is the first instant after the windows.
    { at: at('2026-11-20T12:30:00.000Z'), decision: 'deny', codes: ['AXAG_PATTERN_MISMATCH'] },
  ]);
  // Another tenant's busy hour counts nowhere here.
  await seedEvidenceAt(
    otherId,
    Array.from({ length: 4 }, (_, i) => ({
      at: new Date(NOW.getTime() - (i + 1) * 60_000),
      decision: 'deny',
      codes: ['AXAG_PATTERN_MISMATCH'],
    })),
  );
});

const counts = (since: string, until: string, c: [number, number, number, number, number]) => ({
  since,
  until,
  calls: c[0],
  refusals: c[1],
  held_for_approval: c[2],
  post_checks: c[3],
  post_failures: c[4],
});

describe('getOverview: each window against the same window a day earlier', () => {
  it('counts calls, refusals, approvals held and post-call failures in the last hour and the same hour yesterday', async () => {
    const overview = await getOverview({ tenantId, now: NOW });
    expect(overview.hour).toEqual({
      current: counts('2026-11-20T11:30:00.000Z', '2026-11-20T12:30:00.000Z', [5, 2, 1, 3, 2]),
      previous: counts('2026-11-19T11:30:00.000Z', '2026-11-19T12:30:00.000Z', [2, 1, 0, 1, 0]),
    });
  });

  it('counts the last 24 hours and the 24 before them, and the tiles agree with the day', async () => {
    const overview = await getOverview({ tenantId, now: NOW });
    expect(overview.day).toEqual({
      current: counts('2026-11-19T12:30:00.000Z', '2026-11-20T12:30:00.000Z', [9, 3, 2, 4, 3]),
      previous: counts('2026-11-18T12:30:00.000Z', '2026-11-19T12:30:00.000Z', [5, 1, 0, 2, 1]),
    });
    expect(overview).toMatchObject({
      since: '2026-11-19T12:30:00.000Z',
      until: '2026-11-20T12:30:00.000Z',
      calls: 9,
      refusals: 3,
      held_for_approval: 2,
      shadow_differences: 2,
      last_record_at: '2026-11-20T12:30:00.000Z',
    });
  });

  it('ranks the codes of the last 24 hours, pre and post alike, ties by name, approval holds left out', async () => {
    const overview = await getOverview({ tenantId, now: NOW });
    expect(overview.top_codes).toEqual([
      { code: 'AXAG_OUTPUT_SCHEMA', count: 3 },
      { code: 'AXAG_PATTERN_MISMATCH', count: 3 },
      { code: 'AXAG_REQUIRED_MISSING', count: 1 },
    ]);
    expect((await getOverview({ tenantId, now: NOW, topCodes: 1 })).top_codes).toEqual([{ code: 'AXAG_OUTPUT_SCHEMA', count: 3 }]);
  });

  it('moves with now: an hour later, the last hour holds only what came after it', async () => {
    const overview = await getOverview({ tenantId, now: new Date('2026-11-20T13:30:00.000Z') });
    // 12:30 today is the only record in [12:30, 13:30); 12:30 yesterday is the same hour the day before.
    expect(overview.hour.current).toMatchObject({ calls: 1, refusals: 1, post_failures: 0 });
    expect(overview.hour.previous).toMatchObject({ calls: 1, refusals: 1, held_for_approval: 0 });
  });

  it('is all zeros for a tenant with nothing in the windows, and never counts another tenant', async () => {
    const empty = await getOverview({ tenantId, now: new Date('2026-12-20T12:30:00.000Z') });
    expect(empty.hour.current).toMatchObject({ calls: 0, refusals: 0, held_for_approval: 0, post_checks: 0, post_failures: 0 });
    expect(empty.day.previous).toMatchObject({ calls: 0, refusals: 0, held_for_approval: 0, post_checks: 0, post_failures: 0 });
    expect(empty).toMatchObject({ calls: 0, top_codes: [], last_record_at: '2026-11-20T12:30:00.000Z' });
    const other = await getOverview({ tenantId: otherId, now: NOW });
    expect(other.hour.current).toMatchObject({ calls: 4, refusals: 4 });
    expect(other.day.previous.calls).toBe(0);
    expect(other.top_codes).toEqual([{ code: 'AXAG_PATTERN_MISMATCH', count: 4 }]);
  });
});

describe('getOverview: refusals by kind', () => {
  let kindsTenant: string;
  const times = (n: number, record: SeededRecord): SeededRecord[] => Array.from({ length: n }, () => record);
  const kinds = (overview: Awaited<ReturnType<typeof getOverview>>) =>
    Object.fromEntries(overview.refusal_kinds.map((k) => [k.kind, { hour: k.hour, day: k.day, spike: k.spike }]));

  beforeAll(async () => {
    kindsTenant = (await createTestTenant()).tenant.id;
    const lastHour = at('2026-11-20T12:00:00.000Z');
    const sameHourYesterday = at('2026-11-19T12:00:00.000Z');
    await seedEvidenceAt(kindsTenant, [
      // Older than both windows.
      { at: at('2026-11-18T12:00:00.000Z'), decision: 'deny', codes: ['AXAG_RATE_LIMITED'] },
      // The same hour yesterday: three policy refusals, one of them with a bad argument too.
      ...times(2, { at: sameHourYesterday, decision: 'deny', codes: ['AXAG_RATE_LIMITED'] }),
      { at: sameHourYesterday, decision: 'deny', codes: ['AXAG_POLICY_DENIED', 'AXAG_PATTERN_MISMATCH'] },
      { at: sameHourYesterday, kind: 'post', decision: 'deny', codes: ['AXAG_OUTPUT_MISMATCH'] },
      // Earlier today: one more of each refusal, outside the last hour.
      { at: at('2026-11-20T08:00:00.000Z'), decision: 'deny', codes: ['AXAG_SCOPE_VIOLATION'] },
      { at: at('2026-11-20T08:00:00.000Z'), decision: 'deny', codes: ['AXAG_MISSING_PARAM'] },
      // The last hour: nine policy refusals (three times yesterday's: a spike), four agent
      // mistakes (against none: too few for a spike), five approval holds (against none: a
      // spike), one tool failure (as yesterday).
      ...times(8, { at: lastHour, decision: 'deny', codes: ['AXAG_RATE_LIMITED'] }),
      { at: lastHour, decision: 'deny', codes: ['AXAG_BUDGET_EXCEEDED', 'AXAG_RATE_LIMITED'] },
      ...times(3, { at: lastHour, decision: 'deny', codes: ['AXAG_PATTERN_MISMATCH'] }),
      { at: lastHour, decision: 'deny', codes: ['AXAG_MISSING_PARAM', 'AXAG_APPROVAL_MISSING'] },
      ...times(4, { at: lastHour, decision: 'require_approval', codes: ['AXAG_APPROVAL_MISSING'] }),
      { at: lastHour, decision: 'escalate', codes: ['AXAG_ESCALATION_REQUIRED'] },
      { at: lastHour, kind: 'post', decision: 'deny', codes: ['AXAG_POSTCONDITION_FAILED', 'AXAG_SIDE_EFFECT_MISSING'] },
      { at: lastHour, decision: 'allow' },
    ]);
  });

  it('splits the calls of each window into agent mistakes, policy refusals, approval holds and tool failures', async () => {
    const overview = await getOverview({ tenantId: kindsTenant, now: NOW });
    expect(kinds(overview)).toEqual({
      arguments: { hour: { current: 4, previous: 0 }, day: { current: 5, previous: 0 }, spike: false },
      policy: { hour: { current: 9, previous: 3 }, day: { current: 10, previous: 3 }, spike: true },
      approval: { hour: { current: 5, previous: 0 }, day: { current: 5, previous: 0 }, spike: true },
      tool: { hour: { current: 1, previous: 1 }, day: { current: 1, previous: 1 }, spike: false },
    });
    // Each call once: the kinds add up to the refusals, the holds and the post-call failures.
    expect(overview.hour.current).toMatchObject({ refusals: 13, held_for_approval: 5, post_failures: 1 });
    expect(overview.day.previous).toMatchObject({ refusals: 3, held_for_approval: 0, post_failures: 1 });
  });

  it('leaves approval holds out of the noisiest codes, though they are many', async () => {
    const overview = await getOverview({ tenantId: kindsTenant, now: NOW });
    expect(overview.top_codes.map((c) => c.code)).toEqual([
      'AXAG_RATE_LIMITED',
      'AXAG_PATTERN_MISMATCH',
      'AXAG_MISSING_PARAM',
      'AXAG_BUDGET_EXCEEDED',
      'AXAG_POSTCONDITION_FAILED',
    ]);
  });

  it('is no spike below five calls or below three times yesterday, and none a day later', async () => {
    // An hour on, the last hour is empty and the spikes are gone.
    const later = await getOverview({ tenantId: kindsTenant, now: new Date('2026-11-20T13:30:00.000Z') });
    expect(later.refusal_kinds.every((k) => !k.spike && k.hour.current === 0)).toBe(true);
    expect(later.refusal_kinds.find((k) => k.kind === 'policy')?.day).toEqual({ current: 10, previous: 3 });
  });
});

describe('API keys expiring', () => {
  it("counts the tenant's unrevoked keys that expire within a week or expired in the last one, with the earliest", async () => {
    const { tenant } = await createTestTenant();
    const DAY = 86_400_000;
    const now = new Date('2026-11-20T12:30:00.000Z');
    const made = (name: string, daysAgo: number, lifetime: number) =>
      createApiKey({
        tenantId: tenant.id,
        name,
        scopes: ['validate'],
        expiresInDays: lifetime,
        now: new Date(now.getTime() - daysAgo * DAY),
      });
    expect((await getOverview({ tenantId: tenant.id, now })).api_keys_expiring).toEqual({ count: 0, soonest_at: null });
    await made('expired 8 days ago', 38, 30);
    const recent = await made('expired 2 days ago', 32, 30);
    await made('expires in 3 days', 27, 30);
    await made('expires in 20 days', 10, 30);
    const revoked = await made('revoked, expires tomorrow', 29, 30);
    await revokeApiKey({ tenantId: tenant.id, id: revoked.apiKey.id });
    // Another tenant's key, expiring tomorrow, is not this tenant's business.
    await createApiKey({
      tenantId: otherId,
      name: 'theirs',
      scopes: ['validate'],
      expiresInDays: 30,
      now: new Date(now.getTime() - 29 * DAY),
    });
    expect((await getOverview({ tenantId: tenant.id, now })).api_keys_expiring).toEqual({
      count: 2,
      soonest_at: recent.apiKey.expiresAt?.toISOString(),
    });
  });
});
