import { describe, expect, it } from 'vitest';
import { boundaryAt, planRange } from './rollup-ranges';
import { rollupDeltas } from './rollup-rows';

const d = (iso: string) => new Date(iso);
const r = (since: string, until: string) => ({ since: d(since), until: d(until) });

describe('planRange', () => {
  it('reads the partial hours from rows, whole hours from hour rollups, whole days from day rollups', () => {
    expect(planRange(d('2026-11-18T22:40:00.000Z'), d('2026-11-21T01:20:00.000Z'), { days: true })).toEqual({
      rows: [r('2026-11-18T22:40:00.000Z', '2026-11-18T23:00:00.000Z'), r('2026-11-21T01:00:00.000Z', '2026-11-21T01:20:00.000Z')],
      hours: [r('2026-11-18T23:00:00.000Z', '2026-11-19T00:00:00.000Z'), r('2026-11-21T00:00:00.000Z', '2026-11-21T01:00:00.000Z')],
      days: [r('2026-11-19T00:00:00.000Z', '2026-11-21T00:00:00.000Z')],
    });
    expect(planRange(d('2026-11-18T22:40:00.000Z'), d('2026-11-21T01:20:00.000Z')).days).toEqual([]);
  });

  it('reads a range within one hour, or aligned on none, from rows alone', () => {
    expect(planRange(d('2026-11-18T13:10:00.000Z'), d('2026-11-18T13:50:00.000Z'))).toEqual({
      rows: [r('2026-11-18T13:10:00.000Z', '2026-11-18T13:50:00.000Z')],
      hours: [],
      days: [],
    });
    expect(planRange(d('2026-11-18T13:00:00.000Z'), d('2026-11-18T15:00:00.000Z'))).toEqual({
      rows: [],
      hours: [r('2026-11-18T13:00:00.000Z', '2026-11-18T15:00:00.000Z')],
      days: [],
    });
  });
});

describe('boundaryAt', () => {
  it('reads at most half an hour of rows, before or after the limit', () => {
    expect(boundaryAt(d('2026-11-18T13:00:00.000Z'))).toMatchObject({ anchor: d('2026-11-18T13:00:00.000Z'), rows: null });
    expect(boundaryAt(d('2026-11-18T13:30:00.000Z'))).toMatchObject({
      anchor: d('2026-11-18T13:00:00.000Z'),
      rows: r('2026-11-18T13:00:00.000Z', '2026-11-18T13:30:00.000Z'),
      sign: 1,
    });
    expect(boundaryAt(d('2026-11-18T13:30:00.001Z'))).toMatchObject({
      anchor: d('2026-11-18T14:00:00.000Z'),
      rows: r('2026-11-18T13:30:00.001Z', '2026-11-18T14:00:00.000Z'),
      sign: -1,
    });
  });
});

describe('rollupDeltas', () => {
  it('sums a batch per key, in key order: one row per tenant, hour, kind and decision; six per violation key and code, two per total', () => {
    const at = d('2026-11-18T13:20:00.000Z');
    const row = (id: string, decision: string) => ({ id, tenantId: 't', kind: 'pre', decision, shadowDiffers: id === 'a', createdAt: at });
    const violation = (evidenceId: string, code: string) => ({
      tenantId: 't',
      evidenceId,
      code,
      tool: 'x.y',
      apiKeyId: null,
      decision: 'deny',
      createdAt: at,
    });
    const deltas = rollupDeltas(
      [row('a', 'deny'), row('b', 'deny'), row('c', 'allow')],
      [violation('a', 'AXAG_SCOPE_VIOLATION'), violation('a', 'AXAG_PATTERN_MISMATCH'), violation('b', 'AXAG_PATTERN_MISMATCH')],
    );
    expect(deltas.evidence).toEqual([
      {
        tenantId: 't',
        hour: d('2026-11-18T13:00:00.000Z'),
        kind: 'pre',
        decision: 'allow',
        lane: 0,
        records: 1,
        shadowDiffers: 0,
        policyRefusals: 0,
      },
      {
        tenantId: 't',
        hour: d('2026-11-18T13:00:00.000Z'),
        kind: 'pre',
        decision: 'deny',
        lane: 0,
        records: 2,
        shadowDiffers: 1,
        policyRefusals: 1,
      },
    ]);
    // Two codes by tool, key and code alone, per hour and day; the totals by tool and key over both codes.
    expect(deltas.violations).toHaveLength(2 * 3 * 2 + 2 * 2);
    expect(deltas.violations.filter((v) => v.code === '').map((v) => [v.span, v.dimension, v.value, v.count])).toEqual([
      [3600, 'key_total', '', 3],
      [3600, 'tool_total', 'x.y', 3],
      [86400, 'key_total', '', 3],
      [86400, 'tool_total', 'x.y', 3],
    ]);
    expect(deltas.violations.filter((v) => v.code === 'AXAG_PATTERN_MISMATCH').map((v) => [v.span, v.dimension, v.value, v.count])).toEqual(
      [
        [3600, 'code', '', 2],
        [3600, 'key', '', 2],
        [3600, 'tool', 'x.y', 2],
        [86400, 'code', '', 2],
        [86400, 'key', '', 2],
        [86400, 'tool', 'x.y', 2],
      ],
    );
  });

  it("counts each lane's records and their violations in rows of that lane, so two lanes' commits never upsert one row", () => {
    const at = d('2026-11-18T13:20:00.000Z');
    const row = (id: string, lane: number) => ({
      id,
      tenantId: 't',
      kind: 'pre',
      decision: 'deny',
      shadowDiffers: false,
      createdAt: at,
      lane,
    });
    const violation = (evidenceId: string) => ({
      tenantId: 't',
      evidenceId,
      code: 'AXAG_PATTERN_MISMATCH',
      tool: 'x.y',
      apiKeyId: null,
      decision: 'deny',
      createdAt: at,
    });
    const deltas = rollupDeltas([row('a', 0), row('b', 2), row('c', 2)], [violation('a'), violation('b'), violation('c')]);
    expect(deltas.evidence.map((e) => [e.lane, e.records])).toEqual([
      [0, 1],
      [2, 2],
    ]);
    const byCode = deltas.violations.filter((v) => v.dimension === 'code' && v.span === 3600);
    expect(byCode.map((v) => [v.lane, v.count])).toEqual([
      [0, 1],
      [2, 2],
    ]);
  });
});
