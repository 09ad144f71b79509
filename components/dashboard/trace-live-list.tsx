'use client';

import { useCallback, useRef, useState } from 'react';
import type { TracePage, TraceSummary } from '@/lib/traces/trace-summary';
import { usePolling } from '../use-polling';
import { formatInstant } from './format';
import { TraceTable } from './trace-table';
import { pageTenantHeaders } from '@/components/page-tenant';

/** How often a live list asks for new calls. */
export const TRACES_POLL_MS = 3000;
/** Rows kept on a page left live for long: older ones are a reload (or the pager) away. */
const MAX_ROWS = 500;

type Status = { kind: 'off' } | { kind: 'live'; checkedAt: string | null; added: number } | { kind: 'failed'; message: string };

/**
 * The traces list, and its live tail: with "Live" on, the page asks GET /api/v1/traces (same
 * filters, the session's cookie) every few seconds while the tab is visible, puts calls it has
 * not shown yet on top, marked new, and refreshes the rows it has (a validate/post arriving
 * changes a call's outcome). Nothing reloads; "Pause" stops asking. Only the newest page can
 * be live: an older page or a range that ends in the past gets no new calls.
 */
export function TraceLiveList(props: {
  initial: TraceSummary[];
  shadow: boolean;
  /** The API query for the page's filters (without cursor, time range or limit); null when the page cannot be live. */
  liveQuery: string | null;
}) {
  const [traces, setTraces] = useState(props.initial);
  const [fresh, setFresh] = useState<ReadonlySet<string>>(new Set());
  const [status, setStatus] = useState<Status>({ kind: 'off' });
  const [gap, setGap] = useState(false);
  // What the list shows, for the next check to compare against (set only by the checks).
  const known = useRef(props.initial);
  const reading = useRef(false);
  // A check still under way when Live is paused must not turn it back on with its answer.
  const live = useRef(false);

  const refresh = useCallback(async () => {
    // The check made on turning Live on may still run when the first timed one is due.
    if (props.liveQuery === null || reading.current) return;
    reading.current = true;
    const fetched = await fetchTraces(props.liveQuery).finally(() => {
      reading.current = false;
    });
    if (!live.current) return;
    if (!fetched.ok) {
      setStatus({ kind: 'failed', message: fetched.message });
      return;
    }
    const current = known.current;
    // Calls not shown yet and newer than the oldest shown: on PostgreSQL a record can commit after
    // one with a higher seq (writers commit side by side), so "newer than the newest shown" would
    // miss it; the merged list is kept in seq order.
    const oldest = current.reduce((min, t) => Math.min(min, t.seq), Infinity);
    const byTrace = new Map(fetched.page.traces.map((t) => [t.trace_id, t]));
    const shown = new Set(current.map((t) => t.trace_id));
    const added = fetched.page.traces.filter((t) => !shown.has(t.trace_id) && t.seq > (current.length > 0 ? oldest : 0));
    // A full page of calls the list has never seen: there may be more between them and it.
    if (added.length === fetched.page.traces.length && added.length > 0 && fetched.page.next_cursor && current.length > 0) setGap(true);
    const next = [...added, ...current.map((t) => byTrace.get(t.trace_id) ?? t)].sort((a, b) => b.seq - a.seq).slice(0, MAX_ROWS);
    known.current = next;
    setTraces(next);
    setFresh(new Set(added.map((t) => t.trace_id)));
    setStatus((s) => ({ kind: 'live', checkedAt: new Date().toISOString(), added: (s.kind === 'live' ? s.added : 0) + added.length }));
  }, [props.liveQuery]);

  const toggle = () => {
    live.current = status.kind === 'off';
    if (status.kind === 'off') {
      setStatus({ kind: 'live', checkedAt: null, added: 0 });
      void refresh();
    } else {
      setStatus({ kind: 'off' });
      setFresh(new Set());
    }
  };

  return (
    <>
      {props.liveQuery !== null && (
        <div className="mb-3 flex flex-wrap items-center gap-3 text-sm">
          <button
            type="button"
            className={status.kind === 'off' ? 'btn-secondary' : 'btn-primary'}
            aria-pressed={status.kind !== 'off'}
            onClick={toggle}
            data-testid="traces-live-toggle"
          >
            {status.kind === 'off' ? 'Live' : 'Pause'}
          </button>
          <span className="flex items-center gap-2 text-xs text-zinc-600" role="status" data-testid="traces-live-status">
            <LiveStatus status={status} />
          </span>
          {gap && (
            <span className="text-xs text-amber-800" data-testid="traces-live-gap">
              More calls arrived at once than one check shows; reload for every one.
            </span>
          )}
        </div>
      )}
      {status.kind !== 'off' && <Poller refresh={refresh} />}
      <TraceTable traces={traces} shadow={props.shadow} fresh={fresh} />
    </>
  );
}

/** Mounted only while live, so a paused page makes no requests at all. */
function Poller({ refresh }: { refresh: () => Promise<void> }) {
  usePolling(refresh, TRACES_POLL_MS);
  return null;
}

function LiveStatus({ status }: { status: Status }) {
  if (status.kind === 'off') return <>Paused: turn on Live to see new calls as they come, without reloading.</>;
  if (status.kind === 'failed')
    return (
      <span className="rounded bg-amber-50 px-2 py-0.5 font-medium text-amber-800 ring-1 ring-amber-200">
        Not updated: {status.message} Trying again.
      </span>
    );
  return (
    <>
      <span className="inline-block h-2 w-2 animate-pulse rounded-full bg-emerald-500" aria-hidden />
      <span>
        Live: checking for new calls every {TRACES_POLL_MS / 1000} s
        {status.checkedAt && <> · last checked {formatInstant(status.checkedAt)}</>}
        {status.added > 0 && (
          <>
            {' '}
            · <span data-testid="traces-live-added">{status.added}</span> new since it went live
          </>
        )}
        .
      </span>
    </>
  );
}

type Fetched = { ok: true; page: TracePage } | { ok: false; message: string };

async function fetchTraces(query: string): Promise<Fetched> {
  let response: Response;
  try {
    response = await fetch(`/api/v1/traces?${query}`, {
      credentials: 'same-origin',
      headers: { accept: 'application/json', ...pageTenantHeaders() },
      cache: 'no-store',
    });
  } catch {
    return { ok: false, message: 'Toolgate could not be reached.' };
  }
  if (response.ok) return { ok: true, page: (await response.json()) as TracePage };
  if (response.status === 401) return { ok: false, message: 'Your session has ended; sign in again.' };
  const body = (await response.json().catch(() => ({}))) as { error?: { message?: string } };
  return { ok: false, message: body.error?.message ?? `The server answered ${response.status}.` };
}
