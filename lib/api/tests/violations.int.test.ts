import { beforeAll, describe, expect, it } from 'vitest';
import { createApiKey } from '@/lib/auth/api-keys';
import { lookupOrderContract, refundPaymentContract } from '@/lib/contracts/examples';
import { db } from '@/lib/db';
import { rebuildRollups } from '@/lib/rollups/rebuild-rollups';
import { recordEvidence } from '@/lib/evidence/record-evidence';
import { traceIdFor } from '@/lib/evidence/trace-id';
import { call } from '@/lib/testing/api-client';
import { createTestTenant, publishContract } from '@/lib/testing/fixtures';
import { validatePreHandler as validatePre } from '@/lib/api/handlers/validate';
import { listViolationsHandler as violations, violationStatsHandler as stats } from '@/lib/api/handlers/violations';

let t: Awaited<ReturnType<typeof createTestTenant>>;
let other: Awaited<ReturnType<typeof createTestTenant>>;
let secondKeyId: string;
/** Codes each call produced, as the validation answered them. */
const produced: { callId: string; codes: string[]; key: string }[] = [];

const get = (query = '', key = t.adminKey) => call(violations, { key, path: `/api/v1/violations${query}` });
const getStats = (query = '', key = t.adminKey) => call(stats, { key, path: `/api/v1/violations/stats${query}` });
const iso = (ms: number) => encodeURIComponent(new Date(ms).toISOString());

/** RFC 4180, enough for what the export writes. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i] as string;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (c === '"') quoted = false;
      else cell += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      row.push(cell);
      cell = '';
    } else if (c === '\r' && text[i + 1] === '\n') {
      row.push(cell);
      rows.push(row);
      row = [];
      cell = '';
      i++;
    } else cell += c;
  }
  if (cell || row.length) rows.push([...row, cell]);
  return rows;
}

beforeAll(async () => {
  t = await createTestTenant();
  other = await createTestTenant();
  await publishContract(t.tenant.id, lookupOrderContract);
  await publishContract(t.tenant.id, refundPaymentContract);
  await publishContract(other.tenant.id, lookupOrderContract);
  const second = await createApiKey({ tenantId: t.tenant.id, name: 'second agent', scopes: ['validate'] });
  secondKeyId = second.apiKey.id;
  const pre = async (
    callId: string,
    key: string,
    tool: string,
    args: Record<string, unknown>,
    context: Record<string, unknown> = { tenant_id: 'acme' },
  ) => {
    const res = await call(validatePre, { key, body: { tool, call_id: callId, arguments: args, context } });
    expect(res.status).toBe(200);
    produced.push({ callId, codes: res.body.errors.map((e: { code: string }) => e.code), key });
    return res;
  };
  await pre('bad-1', t.agentKey, 'orders.lookup', { tenant_id: 'acme', order_id: 'BAD' });
  await pre('bad-2', t.agentKey, 'orders.lookup', { tenant_id: 'acme', order_id: 'BAD', extra: 1 });
  await pre('bad-3', second.key, 'orders.lookup', { tenant_id: 'acme', order_id: 'ALSO_BAD' });
  const held = await pre(
    'refund-1',
    t.agentKey,
    'payments.refund',
    { tenant_id: 'acme', payment_id: 'pay_abcdefgh12', amount_cents: 500, reason: 'duplicate' },
    { tenant_id: 'acme', user_id: 'u', roles: ['support'], state: { payment_status: 'captured' } },
  );
  expect(held.body.decision).toBe('require_approval');
  await pre('fine-1', t.agentKey, 'orders.lookup', { tenant_id: 'acme', order_id: 'ord_abc123' });
  await call(validatePre, {
    key: other.agentKey,
    body: {
      tool: 'orders.lookup',
      call_id: 'other-bad',
      arguments: { tenant_id: 'acme', order_id: 'BAD' },
      context: { tenant_id: 'acme' },
    },
  });
  // Cells an agent can influence that a spreadsheet would run as formulas, or that need quoting.
  await recordEvidence({
    tenantId: t.tenant.id,
    kind: 'pre',
    requestId: 'req-csv',
    traceId: traceIdFor(t.tenant.id, 'csv-1'),
    callId: 'csv-1',
    apiKeyId: t.agentKeyId,
    tool: '@evil.tool',
    argsHash: 'b'.repeat(64),
    decision: 'deny',
    valid: false,
    errors: [
      { code: 'AXAG_TEST_FORMULA', type: 'validation_error', message: '=HYPERLINK("http://x","y")', path: '$.a,b' },
      { code: 'AXAG_TEST_FORMULA', type: 'validation_error', message: 'line one\nline "two"', path: '-1' },
    ],
    warnings: [],
    durationMs: 1,
  });
});

describe('GET /api/v1/violations', () => {
  it('lists every error newest first, with its message, trace and key', async () => {
    const res = await get();
    expect(res.status).toBe(200);
    const expected = produced.flatMap((p) => p.codes).length + 2;
    expect(res.body.violations).toHaveLength(expected);
    const times = res.body.violations.map((v: { created_at: string }) => v.created_at);
    expect([...times].sort().reverse()).toEqual(times);
    const first = res.body.violations.find((v: { call_id: string }) => v.call_id === 'bad-1');
    expect(first).toMatchObject({
      code: 'AXAG_PATTERN_MISMATCH',
      tool: 'orders.lookup',
      decision: 'deny',
      api_key_id: t.agentKeyId,
      api_key_name: 'agent',
      trace_id: traceIdFor(t.tenant.id, 'bad-1'),
    });
    expect(first.message).toEqual(expect.any(String));
    expect(first.message.length).toBeGreaterThan(0);
    expect(res.body.violations.some((v: { call_id: string }) => v.call_id === 'fine-1')).toBe(false);
  });

  it('filters by code, tool, key, decision and time range', async () => {
    const callIds = async (query: string) =>
      [...new Set(((await get(query)).body.violations as { call_id: string }[]).map((v) => v.call_id))].sort();
    expect(await callIds('?code=AXAG_PATTERN_MISMATCH')).toEqual(['bad-1', 'bad-2', 'bad-3']);
    expect(await callIds('?tool=payments.refund')).toEqual(['refund-1']);
    expect(await callIds(`?api_key_id=${secondKeyId}`)).toEqual(['bad-3']);
    expect(await callIds('?decision=require_approval')).toEqual(['refund-1']);
    expect(await callIds('?decision=require_approval&tool=orders.lookup')).toEqual([]);
    expect(await callIds(`?since=${iso(Date.now() + 60_000)}`)).toEqual([]);
    expect(await callIds(`?until=${iso(Date.now() - 3_600_000)}`)).toEqual([]);
    expect((await callIds(`?since=${iso(Date.now() - 3_600_000)}&until=${iso(Date.now() + 60_000)}`)).length).toBe(5);
    expect((await get('?since=yesterday')).status).toBe(400);
    expect((await get('?decision=DROP TABLE')).status).toBe(400);
  });

  it('pages with a keyset cursor, each violation once', async () => {
    const all = (await get()).body.violations.map((v: { id: string }) => v.id);
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const res: Awaited<ReturnType<typeof get>> = await get(`?limit=2${cursor ? `&cursor=${cursor}` : ''}`);
      expect(res.status).toBe(200);
      expect(res.body.violations.length).toBeLessThanOrEqual(2);
      seen.push(...res.body.violations.map((v: { id: string }) => v.id));
      cursor = res.body.next_cursor;
    } while (cursor);
    expect(seen).toEqual(all);
    expect((await get('?cursor=WyJub3QtYS1kYXRlIiwieCJd')).status).toBe(400);
    for (const limit of ['1e2', '0x10', '%202']) expect((await get(`?limit=${limit}`)).status, limit).toBe(400);
  });

  it('is scoped to the tenant and needs an admin key or a session', async () => {
    const mine = await get('', other.adminKey);
    expect(mine.body.violations.map((v: { call_id: string }) => v.call_id)).toEqual(['other-bad']);
    expect((await get(`?api_key_id=${t.agentKeyId}`, other.adminKey)).body.violations).toEqual([]);
    expect((await get('', t.agentKey)).status).toBe(403);
  });
});

describe('CSV export', () => {
  it('streams every matching violation with proper quoting and defused formulas', async () => {
    const res = await get('?format=csv');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(res.headers.get('content-disposition')).toMatch(/^attachment; filename="violations-\d{14}\.csv"$/);
    const text = res.body as string;
    expect(text.endsWith('\r\n')).toBe(true);
    expect(text).toContain(`"'=HYPERLINK(""http://x"",""y"")"`);
    const rows = parseCsv(text);
    expect(rows[0]).toEqual([
      'created_at',
      'code',
      'type',
      'decision',
      'tool',
      'api_key_id',
      'api_key_name',
      'path',
      'message',
      'trace_id',
      'call_id',
      'violation_id',
    ]);
    const json = (await get('?limit=500')).body.violations as { id: string }[];
    expect(rows.slice(1).map((r) => r[11])).toEqual(json.map((v) => v.id));
    const formula = rows.filter((r) => r[10] === 'csv-1');
    expect(formula).toHaveLength(2);
    const byPath = new Map(formula.map((r) => [r[7], r]));
    expect(byPath.get('$.a,b')?.[8]).toBe(`'=HYPERLINK("http://x","y")`);
    expect(byPath.get('$.a,b')?.[4]).toBe("'@evil.tool");
    expect(byPath.get("'-1")?.[8]).toBe('line one\nline "two"');
  });

  it('applies the filters and stays inside the tenant', async () => {
    const rows = parseCsv((await get('?format=csv&code=AXAG_PATTERN_MISMATCH')).body as string);
    expect(
      rows
        .slice(1)
        .map((r) => r[10])
        .sort(),
    ).toEqual(['bad-1', 'bad-2', 'bad-3']);
    const theirs = parseCsv((await get('?format=csv', other.adminKey)).body as string);
    expect(theirs.slice(1).map((r) => r[10])).toEqual(['other-bad']);
    const none = await get('?format=csv&tool=no.such_tool');
    expect(parseCsv(none.body as string)).toHaveLength(1);
    expect((await get('?format=xml')).status).toBe(400);
  });
});

describe('GET /api/v1/violations/stats', () => {
  it('counts per code in hour buckets, with the top codes, tools and keys', async () => {
    const now = Date.now();
    // until = now + 1 ms: the range holds exactly three hour buckets, whatever the minute.
    const res = await getStats(`?since=${iso(now - 2 * 3_600_000)}&until=${iso(now + 1)}`);
    expect(res.status).toBe(200);
    expect(res.body.bucket).toBe('hour');
    expect(res.body.buckets.map((b: { start: string }) => b.start)).toEqual(
      [2, 1, 0].map((h) => new Date((Math.floor(now / 3_600_000) - h) * 3_600_000).toISOString()),
    );
    const total = produced.flatMap((p) => p.codes).length + 2;
    expect(res.body.total).toBe(total);
    // Each violation is counted in the hour it happened in.
    const listed = (await get('?limit=500')).body.violations as { created_at: string; code: string }[];
    const expected = new Map<string, Record<string, number>>();
    for (const v of listed) {
      const hour = `${v.created_at.slice(0, 13)}:00:00.000Z`;
      const counts = expected.get(hour) ?? {};
      counts[v.code] = (counts[v.code] ?? 0) + 1;
      expected.set(hour, counts);
    }
    for (const bucket of res.body.buckets as { start: string; total: number; counts: Record<string, number> }[]) {
      expect(bucket.counts).toEqual(expected.get(bucket.start) ?? {});
      expect(bucket.total).toBe(Object.values(bucket.counts).reduce((a, b) => a + b, 0));
    }
    const patternCount = produced.flatMap((p) => p.codes).filter((c) => c === 'AXAG_PATTERN_MISMATCH').length;
    expect(res.body.top_codes.find((c: { code: string }) => c.code === 'AXAG_PATTERN_MISMATCH').count).toBe(patternCount);
    expect(res.body.top_codes.find((c: { code: string }) => c.code === 'AXAG_TEST_FORMULA').count).toBe(2);
    expect(res.body.top_tools[0]).toEqual({
      tool: 'orders.lookup',
      count: produced.filter((p) => p.callId.startsWith('bad')).flatMap((p) => p.codes).length,
    });
    expect(res.body.top_keys.find((k: { api_key_id: string }) => k.api_key_id === secondKeyId)).toMatchObject({
      api_key_name: 'second agent',
      count: produced.find((p) => p.callId === 'bad-3')?.codes.length,
    });
    const filtered = await getStats(`?code=AXAG_APPROVAL_MISSING&since=${iso(now - 3_600_000)}&until=${iso(now + 1)}`);
    expect(filtered.body.total).toBe(1);
    expect(filtered.body.codes).toEqual(['AXAG_APPROVAL_MISSING']);
    expect(filtered.body.top_tools).toEqual([{ tool: 'payments.refund', count: 1 }]);
  });

  it('puts older violations in their own day, and stays inside the tenant', async () => {
    const twoDaysAgo = new Date(Date.now() - 2 * 86_400_000);
    const moved = await db().violation.findFirstOrThrow({ where: { tenantId: t.tenant.id, code: 'AXAG_APPROVAL_MISSING' } });
    await db().violation.update({ where: { id: moved.id }, data: { createdAt: twoDaysAgo } });
    // Backdated behind the writer's back: its rollups are recounted.
    await rebuildRollups({ tenantId: t.tenant.id });
    const res = await getStats(`?since=${iso(Date.now() - 10 * 86_400_000)}`);
    expect(res.body.bucket).toBe('day');
    expect(res.body.buckets).toHaveLength(11);
    const day = res.body.buckets.find((b: { start: string }) => b.start === `${twoDaysAgo.toISOString().slice(0, 10)}T00:00:00.000Z`);
    expect(day.counts).toEqual({ AXAG_APPROVAL_MISSING: 1 });
    // The default range is the last 7 days; the other tenant sees only its own.
    const theirs = await getStats('', other.adminKey);
    expect(theirs.body.total).toBe(1);
    expect(theirs.body.top_keys).toEqual([{ api_key_id: other.agentKeyId, api_key_name: 'agent', count: 1 }]);
  });

  it('refuses a reversed or too long range', async () => {
    const now = Date.now();
    expect((await getStats(`?since=${iso(now)}&until=${iso(now - 1000)}`)).status).toBe(400);
    expect((await getStats(`?since=${iso(now - 400 * 86_400_000)}&until=${iso(now)}`)).status).toBe(400);
    expect((await getStats('', t.agentKey)).status).toBe(403);
  });
});

describe("a violation that names another tenant's record", () => {
  it("is not listed: the record must be the listing tenant's", async () => {
    const theirs = await db().violation.findFirstOrThrow({ where: { tenantId: other.tenant.id } });
    // A row no writer makes (a violation is written with its own tenant's record): made here by hand.
    const forged = await db().violation.create({ data: { ...theirs, id: undefined, tenantId: t.tenant.id, createdAt: new Date() } });
    try {
      const mine = await get('?limit=100');
      expect(mine.status).toBe(200);
      const ids = mine.body.violations.map((v: { id: string }) => v.id);
      expect(ids.length).toBeGreaterThan(0);
      expect(ids).not.toContain(forged.id);
      // The other tenant still sees its own violation, with its record.
      const listed = await get('', other.adminKey);
      expect(listed.body.violations.map((v: { id: string }) => v.id)).toContain(theirs.id);
    } finally {
      await db().violation.delete({ where: { id: forged.id } });
    }
  });
});

describe('values PostgreSQL cannot hold, in the query (each was a 503 "database unavailable" there)', () => {
  const cursor = (key: unknown[]) => Buffer.from(JSON.stringify(key)).toString('base64url');

  it("reads instants before 1970 (year 0 included) as 1970, on the list and the export; the chart's limits answer the stats", async () => {
    for (const query of ['?since=0000-01-01T00:00:00Z', '?until=0000-01-01T00:00:00Z', '?format=csv&since=0000-01-01T00:00:00Z']) {
      const res = await get(query);
      expect([res.status, res.body?.error], query).toEqual([200, undefined]);
    }
    // The chart's own limits answer these, as they would any range: never the database's.
    expect((await getStats('?until=0001-01-01T00:00:00Z')).body.error).toMatchObject({
      code: 'bad_request',
      message: 'Invalid query: since must be before until',
    });
    expect((await getStats('?since=0000-01-01T00:00:00Z')).body.error).toMatchObject({
      code: 'bad_request',
      message: 'Invalid query: a chart covers at most 366 days',
    });
  });

  it('refuses a NUL in any query value with 400, and a forged cursor past what the database holds', async () => {
    for (const query of ['?code=%00', '?tool=a%00', '?api_key_id=%00', '?format=csv&code=%00']) {
      const res = await get(query);
      expect(res.status, query).toBe(400);
      expect(res.body.error.code, query).toBe('bad_request');
    }
    expect((await getStats('?tool=%00')).status).toBe(400);
    for (const key of [
      ['0000-01-01T00:00:00Z', 'x'],
      ['2026-12-06T10:00:00Z', '\u0000'],
    ]) {
      const res = await get(`?cursor=${cursor(key)}`);
      expect(res.status, JSON.stringify(key)).toBe(400);
      expect(res.body.error.code).toBe('bad_request');
    }
  });
});
