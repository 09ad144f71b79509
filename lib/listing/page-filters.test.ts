import { describe, expect, it } from 'vitest';
import { pageHref, readPageFilters } from './page-filters';

const now = new Date('2026-11-22T12:00:00.000Z');
const fields = { tool: 'name', decision: 'decision', key: 'name', q: 'search', shadow: 'flag' } as const;

describe('readPageFilters', () => {
  it('puts an instant given with an offset back into the UTC form as its UTC time, and reads year 0 as 1970', () => {
    const page = readPageFilters(
      { since: '2026-12-05T10:00:00+05:30', until: '2026-12-06T00:00:30Z' },
      { fields, defaultRange: 'all', now },
    );
    expect(page.since?.toISOString()).toBe('2026-12-05T04:30:00.000Z');
    expect(page.values).toMatchObject({ since: '2026-12-05T04:30:00', until: '2026-12-06T00:00:30', range: 'custom' });
    // The links carry these values: read again, they are the same instants.
    const again = readPageFilters(page.values, { fields, defaultRange: 'all', now });
    expect([again.since?.toISOString(), again.until?.toISOString()]).toEqual(['2026-12-05T04:30:00.000Z', '2026-12-06T00:00:30.000Z']);
    expect(readPageFilters({ since: '0000-01-01T00:00' }, { fields, defaultRange: 'all', now }).since?.toISOString()).toBe(
      '1970-01-01T00:00:00.000Z',
    );
  });

  it("reads a range named after an object's own methods as unknown, not as a range of NaN milliseconds", () => {
    for (const range of ['toString', 'constructor', '__proto__', 'hasOwnProperty', 'valueOf']) {
      const page = readPageFilters({ range }, { fields, defaultRange: '24h', now });
      expect([page.range, page.since?.toISOString(), page.problems.length], range).toEqual(['24h', '2026-11-21T12:00:00.000Z', 1]);
    }
  });

  it('drops a search with a NUL in it', () => {
    const page = readPageFilters({ q: 'ord\u0000' }, { fields, defaultRange: 'all', now });
    expect(page.values.q).toBeUndefined();
    expect(page.problems).toHaveLength(1);
  });

  it('reads valid filters and a quick range', () => {
    const page = readPageFilters(
      { tool: 'orders.lookup', decision: 'deny', range: '24h', cursor: 'WzEyXQ' },
      { fields, defaultRange: 'all', now },
    );
    expect(page.values).toEqual({ tool: 'orders.lookup', decision: 'deny', range: '24h' });
    expect(page.since?.toISOString()).toBe('2026-11-21T12:00:00.000Z');
    expect(page.until).toBeUndefined();
    expect(page.cursor).toBe('WzEyXQ');
    expect(page.problems).toEqual([]);
  });

  it('reports and drops values of the wrong shape', () => {
    const page = readPageFilters(
      { tool: "x' OR 1=1 --", decision: 'DENY', shadow: 'yes', range: 'forever', cursor: 'not a cursor!' },
      { fields, defaultRange: '7d', now },
    );
    expect(page.values).toEqual({ range: '7d' });
    expect(page.problems).toHaveLength(4);
    expect(page.cursor).toBeUndefined();
  });

  it('reads datetime-local bounds as UTC and refuses a reversed range', () => {
    const page = readPageFilters(
      { range: 'custom', since: '2026-11-01T08:30', until: '2026-11-02T00:00:00+01:00' },
      { fields, defaultRange: 'all', now },
    );
    expect(page.since?.toISOString()).toBe('2026-11-01T08:30:00.000Z');
    expect(page.until?.toISOString()).toBe('2026-11-01T23:00:00.000Z');
    expect(page.range).toBe('custom');
    const reversed = readPageFilters({ since: '2026-11-02T00:00', until: '2026-11-01T00:00' }, { fields, defaultRange: 'all', now });
    expect(reversed.since).toBeUndefined();
    expect(reversed.problems[0]).toMatch(/before/);
    expect(readPageFilters({ since: 'yesterday' }, { fields, defaultRange: 'all', now }).problems[0]).toMatch(/not a date/);
  });

  it('takes the first of repeated parameters', () => {
    expect(readPageFilters({ tool: ['a.b', 'c.d'] }, { fields, defaultRange: 'all', now }).values.tool).toBe('a.b');
  });
});

describe('pageHref', () => {
  it('keeps the filters, applies changes and drops empty values', () => {
    expect(pageHref('/traces', { tool: 'a.b', range: '24h' }, { cursor: 'abc', range: undefined })).toBe('/traces?tool=a.b&cursor=abc');
    expect(pageHref('/traces', {})).toBe('/traces');
  });
});
