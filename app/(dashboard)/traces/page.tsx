import type { Metadata } from 'next';
import { listTraces } from '@/lib/traces/list-traces';
import { TRACE_SCAN_WINDOW } from '@/lib/traces/list-traces';
import { TRACE_SEARCH_MAX, type TraceSearchMatch } from '@/lib/traces/search-traces';
import { pageHref, readPageFilters, type SearchParams } from '@/lib/listing/page-filters';
import { listApiKeys } from '@/lib/auth/api-keys';
import { listDocuments } from '@/lib/documents/list-documents';
import { AppError } from '@/lib/errors';
import { TraceLiveList } from '@/components/dashboard/trace-live-list';
import { NoCallsYet } from '@/components/dashboard/no-calls-yet';
import { publicBaseUrl } from '@/lib/env';
import { Pager } from '@/components/dashboard/pager';
import { formatCount, formatInstant } from '@/components/dashboard/format';
import Link from 'next/link';
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

export const metadata: Metadata = { title: 'Traces' };
export const dynamic = 'force-dynamic';

const PAGE_SIZE = 50;

export default async function TracesPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  const member = await requireMember();
  const tenantId = member.tenant.id;
  const page = readPageFilters(await searchParams, {
    fields: { tool: 'name', decision: 'decision', key: 'name', q: 'search', match: 'name', shadow: 'flag' },
    defaultRange: 'all',
  });
  const v = page.values;
  const shadow = v.shadow === '1';
  const match: TraceSearchMatch = v.match === 'contains' ? 'contains' : 'prefix';
  const [keys, contracts] = await Promise.all([listApiKeys({ tenantId }), listDocuments({ tenantId, kind: 'contract' })]);
  const filters = {
    tool: v.tool,
    decision: v.decision,
    apiKeyId: v.key,
    search: v.q?.slice(0, TRACE_SEARCH_MAX),
    match,
    shadowDiffers: shadow,
    since: page.since,
    until: page.until,
  };
  const problems = [...page.problems];
  const result = await listTraces({ tenantId, filters, cursor: page.cursor, limit: PAGE_SIZE }).catch((error: unknown) => {
    // A stale or hand-edited cursor: show the newest calls instead of an error page.
    if (!(error instanceof AppError && error.code === 'bad_request')) throw error;
    problems.push('That page link is no longer valid; showing the newest calls.');
    return listTraces({ tenantId, filters, limit: PAGE_SIZE });
  });
  const filtered = Object.keys(v).some((k) => k !== 'range' || v.range !== 'all');
  // The newest page of a range still open at its end gets new calls: it can be live.
  const liveQuery =
    page.cursor || page.until
      ? null
      : new URLSearchParams(
          Object.entries({
            tool: filters.tool,
            decision: filters.decision,
            api_key_id: filters.apiKeyId,
            q: filters.search,
            match: filters.search ? match : undefined,
            shadow_differs: shadow ? 'true' : undefined,
            since: page.since?.toISOString(),
          }).filter((e): e is [string, string] => !!e[1]),
        ).toString();

  return (
    <>
      <h1 className="text-2xl font-semibold tracking-tight">{shadow ? 'Shadow differences' : 'Traces'}</h1>
      <p className="mt-1 mb-6 text-sm text-zinc-600">
        {shadow
          ? 'Checks where a shadow policy or contract version would have decided differently from the enforced one. Shadow versions decide nothing; this is where to look before enforcing one.'
          : 'One row per call (a call_id), newest first: the decision of its validate/pre, and how it ended. Open one for its timeline and evidence.'}
      </p>
      <FilterForm action="/traces" resetHref="/traces">
        <TextField label="Search" name="q" value={v.q} placeholder="call_id or trace id" width="w-56" />
        <SelectField
          label="Match"
          name="match"
          value={match}
          options={[
            { value: 'prefix', label: 'Starts with' },
            { value: 'contains', label: 'Contains' },
          ]}
        />
        <TextField label="Tool" name="tool" value={v.tool} list="trace-tools" placeholder="any tool" />
        <DataList id="trace-tools" values={contracts.map((c) => c.id)} />
        <SelectField label="Decision" name="decision" value={v.decision} options={DECISION_OPTIONS} />
        <SelectField
          label="Agent key"
          name="key"
          value={v.key}
          options={[{ value: '', label: 'Any key' }, ...keys.map((k) => ({ value: k.id, label: `${k.name} (${k.prefix}…)` }))]}
        />
        <TimeRangeFields range={page.range === 'custom' ? 'custom' : (v.range ?? 'all')} since={v.since} until={v.until} />
        <label className="flex items-center gap-2 pb-2">
          <input type="checkbox" name="shadow" value="1" defaultChecked={shadow} /> Only shadow differences
        </label>
      </FilterForm>
      <Problems problems={problems} />
      {result.search_scanned && (
        <p className="mb-3 text-sm text-zinc-600" data-testid="traces-search-scanned">
          {match === 'contains' ? '“Contains” has no index to use' : 'This prefix names many calls'}: it searches the newest{' '}
          {formatCount(TRACE_SCAN_WINDOW)} records of the time range first, then older ones a window at a time. A longer “starts with”
          search is instant over the whole history.
        </p>
      )}
      {result.searched_back_to && (
        <p className="mb-3 text-sm text-zinc-600" data-testid="traces-window">
          {result.traces.length === 0 ? 'No matches' : 'No more matches'} among the calls since {formatInstant(result.searched_back_to)};
          older ones are searched a window at a time.{' '}
          {result.next_cursor && (
            <Link className="font-medium text-brand hover:underline" href={pageHref('/traces', v, { cursor: result.next_cursor })}>
              Search older calls →
            </Link>
          )}
        </p>
      )}
      {result.traces.length === 0 && result.searched_back_to ? null : result.traces.length === 0 ? (
        filtered || page.cursor ? (
          <div className="card p-8 text-sm text-zinc-600" data-testid="traces-empty">
            <h2 className="mb-1 text-base font-semibold text-zinc-900">
              {shadow ? 'No shadow differences' : 'No calls match these filters'}
            </h2>
            <p>
              {shadow
                ? 'No shadow policy or contract version disagreed with the enforced decision in this range.'
                : 'Widen the time range or clear a filter.'}
            </p>
          </div>
        ) : (
          <NoCallsYet baseUrl={publicBaseUrl()} tenantId={tenantId} />
        )
      ) : (
        // Keyed by the view: another filter or page starts a new list rather than keeping this one's rows.
        <TraceLiveList
          key={pageHref('/traces', v, { cursor: page.cursor })}
          initial={result.traces}
          shadow={shadow}
          liveQuery={liveQuery}
        />
      )}
      <Pager
        onFirstPage={!page.cursor}
        newestHref={pageHref('/traces', v)}
        olderHref={result.next_cursor ? pageHref('/traces', v, { cursor: result.next_cursor }) : null}
      />
    </>
  );
}
