import { beforeAll, describe, expect, it } from 'vitest';
import { lookupOrderContract } from '@/lib/contracts/examples';
import { traceIdFor } from '@/lib/evidence/trace-id';
import { listTraces } from '@/lib/traces/list-traces';
import { SEARCH_TRACES_MAX } from '@/lib/traces/search-traces';
import { call } from '@/lib/testing/api-client';
import { createTestTenant, publishContract } from '@/lib/testing/fixtures';
import { validatePreHandler as validatePre } from '@/lib/api/handlers/validate';
import { listTracesHandler as traces } from '@/lib/api/handlers/traces';

let t: Awaited<ReturnType<typeof createTestTenant>>;
let other: Awaited<ReturnType<typeof createTestTenant>>;

// Call ids with the characters LIKE treats as wildcards, and cases that differ only in case.
const CALLS = ['order_a1', 'orderXa1', 'refund%5', 'refund_55', 'RefUnd-9', 'ship.7', 'ship.77'];
// More calls under one prefix than the indexes are asked for: that prefix is searched a window at a time.
const BULK = SEARCH_TRACES_MAX + 5;

const pre = (key: string, callId: string) =>
  call(validatePre, {
    key,
    body: {
      tool: 'orders.lookup',
      call_id: callId,
      arguments: { tenant_id: 'acme', order_id: 'ord_abc123' },
      context: { tenant_id: 'acme' },
    },
  });
type Page = {
  traces: { call_id: string; trace_id: string }[];
  next_cursor: string | null;
  search_scanned: boolean;
  searched_back_to: string | null;
};
const list = async (query: Record<string, string>): Promise<Page> => {
  const res = await call(traces, { key: t.adminKey, path: `/api/v1/traces?${new URLSearchParams(query).toString()}` });
  expect(res.status).toBe(200);
  return res.body as Page;
};
const ids = async (query: Record<string, string>) => (await list(query)).traces.map((r) => r.call_id);

beforeAll(async () => {
  t = await createTestTenant();
  other = await createTestTenant();
  await publishContract(t.tenant.id, lookupOrderContract);
  await publishContract(other.tenant.id, lookupOrderContract);
  for (let n = 0; n < BULK; n++) expect((await pre(t.agentKey, `bulk-${n}`)).status).toBe(200);
  for (const callId of CALLS) expect((await pre(t.agentKey, callId)).body.decision).toBe('allow');
  // The other tenant has calls under the same prefixes: never found from this one.
  for (const callId of ['order_a2', 'refund%6', 'bulk-1']) await pre(other.agentKey, callId);
}, 120_000);

describe('trace search: prefix (the default)', () => {
  it('finds call ids starting with the text, newest first, case-sensitive, through the indexes', async () => {
    expect(await ids({ q: 'order' })).toEqual(['orderXa1', 'order_a1']);
    expect(await ids({ q: 'ship.7' })).toEqual(['ship.77', 'ship.7']);
    expect(await ids({ q: 'ship.77' })).toEqual(['ship.77']);
    expect(await ids({ q: 'refund' })).toEqual(['refund_55', 'refund%5']);
    expect(await ids({ q: 'Ref' })).toEqual(['RefUnd-9']);
    expect(await ids({ q: 'ORDER' })).toEqual([]);
    expect(await ids({ q: 'rder' })).toEqual([]);
    const page = await list({ q: 'bulk-1' });
    // bulk-1, bulk-10..19, bulk-100..199: 111 calls, within the indexes' answer.
    expect(page.search_scanned).toBe(false);
    expect(page.traces).toHaveLength(50);
    expect(page.traces[0]?.call_id).toBe('bulk-199');
  });

  it('takes what the user typed literally: _ and % are not wildcards', async () => {
    expect(await ids({ q: 'order_' })).toEqual(['order_a1']);
    expect(await ids({ q: 'refund%' })).toEqual(['refund%5']);
    expect(await ids({ q: 'refund_' })).toEqual(['refund_55']);
    expect(await ids({ q: '%' })).toEqual([]);
    expect(await ids({ q: '_' })).toEqual([]);
  });

  it('finds trace ids starting with the text, in any case', async () => {
    const traceId = traceIdFor(t.tenant.id, 'ship.7');
    expect(await ids({ q: traceId })).toEqual(['ship.7']);
    expect(await ids({ q: traceId.slice(0, 10) })).toEqual(['ship.7']);
    expect(await ids({ q: traceId.slice(0, 10).toUpperCase() })).toEqual(['ship.7']);
  });

  it('searches a prefix naming too many calls a window at a time, newest first, and says so', async () => {
    const page = await list({ q: 'bulk-', limit: '3' });
    expect(page.search_scanned).toBe(true);
    expect(page.traces.map((r) => r.call_id)).toEqual([`bulk-${BULK - 1}`, `bulk-${BULK - 2}`, `bulk-${BULK - 3}`]);
    expect(page.next_cursor).not.toBeNull();
    // Following the cursor finds every one of them exactly once.
    const seen = new Set<string>();
    let cursor: string | null = null;
    do {
      const next: Page = await list({ q: 'bulk-', limit: '200', ...(cursor ? { cursor } : {}) });
      for (const r of next.traces) {
        expect(seen.has(r.call_id)).toBe(false);
        seen.add(r.call_id);
      }
      cursor = next.next_cursor;
    } while (cursor);
    expect(seen.size).toBe(BULK);
  });

  it("never finds another tenant's calls", async () => {
    expect(await ids({ q: 'order_a' })).toEqual(['order_a1']);
    expect(await ids({ q: traceIdFor(other.tenant.id, 'order_a2').slice(0, 12) })).toEqual([]);
    expect(await ids({ q: 'der_a2', match: 'contains' })).toEqual([]);
  });
});

describe('trace search: contains', () => {
  it('finds the text anywhere in a call id, literally and case-sensitively', async () => {
    expect(await ids({ q: 'und', match: 'contains' })).toEqual(['refund_55', 'refund%5']);
    expect(await ids({ q: 'Und', match: 'contains' })).toEqual(['RefUnd-9']);
    expect(await ids({ q: '%5', match: 'contains' })).toEqual(['refund%5']);
    expect(await ids({ q: '_5', match: 'contains' })).toEqual(['refund_55']);
    expect(await ids({ q: 'Xa', match: 'contains' })).toEqual(['orderXa1']);
    expect((await list({ q: 'und', match: 'contains' })).search_scanned).toBe(true);
  });

  it('finds the text anywhere in a trace id', async () => {
    const traceId = traceIdFor(t.tenant.id, 'RefUnd-9');
    expect(await ids({ q: traceId.slice(9, 25), match: 'contains' })).toEqual(['RefUnd-9']);
    expect(await ids({ q: traceId.slice(9, 25).toUpperCase(), match: 'contains' })).toEqual(['RefUnd-9']);
  });

  it('walks a bounded window of records per request and hands out a cursor for older ones', async () => {
    const first = await listTraces({ tenantId: t.tenant.id, filters: { search: '_a1', match: 'contains' }, limit: 10, scanWindow: 4 });
    // The newest four records are ship.77, ship.7, RefUnd-9, refund_55: no match there.
    expect(first.traces).toEqual([]);
    expect(first.search_scanned).toBe(true);
    expect(first.searched_back_to).not.toBeNull();
    const found: string[] = [];
    let cursor = first.next_cursor;
    for (let i = 0; cursor && i < 200; i++) {
      const next = await listTraces({
        tenantId: t.tenant.id,
        filters: { search: '_a1', match: 'contains' },
        limit: 10,
        scanWindow: 4,
        cursor,
      });
      found.push(...next.traces.map((r) => r.call_id));
      cursor = next.next_cursor;
    }
    expect(found).toEqual(['order_a1']);
  });
});

describe('trace search: input', () => {
  it('refuses a search longer than 128 characters or an unknown match with 400', async () => {
    const long = await call(traces, { key: t.adminKey, path: `/api/v1/traces?q=${'x'.repeat(129)}` });
    expect(long.status).toBe(400);
    expect(long.body.error.code).toBe('bad_request');
    const match = await call(traces, { key: t.adminKey, path: '/api/v1/traces?q=x&match=regex' });
    expect(match.status).toBe(400);
    expect(match.body.error.code).toBe('bad_request');
    expect(await ids({ q: 'x'.repeat(128) })).toEqual([]);
    expect(await ids({ q: '\'; DROP TABLE "Evidence"; --', match: 'contains' })).toEqual([]);
    expect(await ids({ q: '\u{10FFFF}', match: 'contains' })).toEqual([]);
  });
});
