import type { Metadata } from 'next';
import Link from 'next/link';
import { listViolations } from '@/lib/violations/list-violations';
import { getViolationStats, HOURLY_RANGE_MAX_MS } from '@/lib/violations/get-violation-stats';
import { isViolationKind } from '@/lib/violations/violation-kinds';
import { pageHref, readPageFilters, type SearchParams } from '@/lib/listing/page-filters';
import { CSV_ROWS_MAX } from '@/lib/violations/violations-query-schemas';
import { listApiKeys } from '@/lib/auth/api-keys';
import { listDocuments } from '@/lib/documents/list-documents';
import { AppError } from '@/lib/errors';
import { ViolationsChart } from '@/components/dashboard/violations-chart';
import { ViolationTable } from '@/components/dashboard/violation-table';
import { CodeField, KIND_OPTIONS } from '@/components/dashboard/violation-filters';
import { TopList } from '@/components/dashboard/top-list';
import { NoCallsYet } from '@/components/dashboard/no-calls-yet';
import { publicBaseUrl } from '@/lib/env';
import { Pager } from '@/components/dashboard/pager';
import { formatCount } from '@/components/dashboard/format';
import {
  DataList,
  DECISION_OPTIONS,
  FilterForm,
  Problems,
  SelectField,
  TextField,
  TimeRangeFields,
} from '@/components/dashboard/filter-fields';
import { requireMember } from '../require-member';
import { TENANT_FIELD } from '@/lib/auth/page-tenant';

export const metadata: Metadata = { title: 'Violations' };
export const dynamic = 'force-dynamic';

const PAGE_SIZE = 100;
/** With "all time" the chart still needs a start: the last 30 days. */
const CHART_DEFAULT_MS = 30 * 86_400_000;

export default async function ViolationsPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  const member = await requireMember();
  const tenantId = member.tenant.id;
  const page = readPageFilters(await searchParams, {
    fields: { code: 'name', tool: 'name', key: 'name', decision: 'decision', kind: 'name', bucket: 'name' },
    defaultRange: '7d',
  });
  const v = page.values;
  const problems = [...page.problems];
  if (v.kind !== undefined && !isViolationKind(v.kind)) {
    problems.push(`Ignored the kind “${v.kind}”.`);
    delete v.kind;
  }
  const kind = isViolationKind(v.kind) ? v.kind : undefined;
  const filters = { code: v.code, tool: v.tool, apiKeyId: v.key, decision: v.decision, kind, since: page.since, until: page.until };
  const now = new Date();
  const chartUntil = page.until ?? now;
  const chartSince = page.since ?? new Date(chartUntil.getTime() - CHART_DEFAULT_MS);
  // Both hour and day bars only where hours fit; past that, days only.
  const hoursAllowed = chartUntil.getTime() - chartSince.getTime() <= HOURLY_RANGE_MAX_MS;
  if (v.bucket !== undefined && !(v.bucket === 'day' || (v.bucket === 'hour' && hoursAllowed))) {
    problems.push(v.bucket === 'hour' ? 'Hour bars cover at most 8 days; showing day bars.' : `Ignored the bucket “${v.bucket}”.`);
    delete v.bucket;
  }
  const bucket = v.bucket === 'hour' || v.bucket === 'day' ? v.bucket : undefined;
  const [list, stats, keys, contracts] = await Promise.all([
    listViolations({ tenantId, filters, cursor: page.cursor, limit: PAGE_SIZE }).catch((error: unknown) => {
      if (!(error instanceof AppError && error.code === 'bad_request')) throw error;
      problems.push('That page link is no longer valid; showing the newest violations.');
      return listViolations({ tenantId, filters, limit: PAGE_SIZE });
    }),
    getViolationStats({ tenantId, filters: { ...filters, since: chartSince, until: chartUntil }, bucket }),
    listApiKeys({ tenantId }),
    listDocuments({ tenantId, kind: 'contract' }),
  ]);
  // The link names this page's tenant: the cookie's may be another by the time it is clicked.
  const csvQuery = new URLSearchParams({ format: 'csv', [TENANT_FIELD]: tenantId });
  for (const [name, value] of [
    ['code', v.code],
    ['tool', v.tool],
    ['api_key_id', v.key],
    ['decision', v.decision],
    ['kind', kind],
    ['since', page.since?.toISOString()],
    ['until', page.until?.toISOString()],
  ] as const) {
    if (value) csvQuery.set(name, value);
  }
  const filtered = Object.keys(v).some((k) => k !== 'range' && k !== 'bucket');
  const bucketLinks = hoursAllowed
    ? {
        hour: pageHref('/violations', v, { bucket: 'hour', cursor: undefined }),
        day: pageHref('/violations', v, { bucket: 'day', cursor: undefined }),
      }
    : null;

  return (
    <>
      <div className="flex items-start justify-between gap-4">
        <h1 className="text-2xl font-semibold tracking-tight">Violations</h1>
        <a
          className="btn-secondary"
          href={`/api/v1/violations?${csvQuery.toString()}`}
          data-testid="violations-csv"
          title={`Newest first, at most ${formatCount(CSV_ROWS_MAX)} rows`}
        >
          Export CSV
        </a>
      </div>
      <p className="mt-1 mb-6 text-sm text-zinc-600">
        Every error a check found, over time: why calls were refused or held. Filters stay in the address, so a filtered view is a link you
        can share.
      </p>
      <FilterForm action="/violations" resetHref="/violations">
        <SelectField label="Kind" name="kind" value={kind} options={KIND_OPTIONS} />
        <CodeField value={v.code} seen={stats.top_codes.map((c) => c.code)} />
        <TextField label="Tool" name="tool" value={v.tool} list="violation-tools" placeholder="any tool" />
        <DataList id="violation-tools" values={contracts.map((c) => c.id)} />
        <SelectField
          label="Agent key"
          name="key"
          value={v.key}
          options={[{ value: '', label: 'Any key' }, ...keys.map((k) => ({ value: k.id, label: `${k.name} (${k.prefix}…)` }))]}
        />
        <SelectField label="Decision" name="decision" value={v.decision} options={DECISION_OPTIONS} />
        <TimeRangeFields range={page.range === 'custom' ? 'custom' : (v.range ?? '7d')} since={v.since} until={v.until} />
      </FilterForm>
      <Problems problems={problems} />
      <ViolationsChart stats={stats} bucketLinks={bucketLinks} />
      {!page.since && (
        <p className="mt-1 text-xs text-zinc-500">
          The chart and the top lists cover the last 30 days; the list below covers the whole range.
        </p>
      )}
      <div className="mt-4 grid grid-cols-1 gap-4 md:grid-cols-3">
        <TopList
          title="Top codes"
          testId="top-codes"
          rows={stats.top_codes.map((c) => ({
            label: c.code,
            count: c.count,
            href: pageHref('/violations', v, { code: c.code, cursor: undefined }),
            mono: true,
          }))}
        />
        <TopList
          title="Top offending tools"
          testId="top-tools"
          rows={stats.top_tools.map((t) => ({
            label: t.tool,
            count: t.count,
            href: pageHref('/violations', v, { tool: t.tool, cursor: undefined }),
            mono: true,
          }))}
        />
        <TopList
          title="Top offending keys"
          testId="top-keys"
          rows={stats.top_keys.map((k) => ({
            label: k.api_key_name ?? k.api_key_id ?? '(no key)',
            count: k.count,
            href: k.api_key_id ? pageHref('/violations', v, { key: k.api_key_id, cursor: undefined }) : null,
          }))}
        />
      </div>
      <h2 className="mt-8 mb-3 text-lg font-semibold">{filtered ? 'Matching violations' : 'All violations'}</h2>
      {list.violations.length === 0 ? (
        filtered || page.cursor ? (
          <div className="card p-8 text-sm text-zinc-600" data-testid="violations-empty">
            <h2 className="mb-1 text-base font-semibold text-zinc-900">No violations match these filters</h2>
            <p>
              Widen the time range or clear a filter.{' '}
              <Link className="font-medium text-brand hover:underline" href="/violations?range=all">
                All violations, all time
              </Link>
              .
            </p>
          </div>
        ) : (
          <NoCallsYet baseUrl={publicBaseUrl()} tenantId={tenantId} what="violations" />
        )
      ) : (
        <ViolationTable violations={list.violations} />
      )}
      <Pager
        onFirstPage={!page.cursor}
        newestHref={pageHref('/violations', v)}
        olderHref={list.next_cursor ? pageHref('/violations', v, { cursor: list.next_cursor }) : null}
      />
    </>
  );
}
