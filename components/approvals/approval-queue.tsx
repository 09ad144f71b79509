'use client';

import { useCallback, useEffect, useState } from 'react';
import type { ApprovalQueueItem } from '@/lib/approvals/approval-queue-types';
import { usePolling } from '../use-polling';
import { ApprovalCard } from './approval-card';
import { fetchPending, fetchQueue, formatUtc, HISTORY_LIMIT, PENDING_LIMIT, type PendingView } from './approvals-api';

/**
 * How often the open page asks for the queue. Short polling, not server-sent events: a
 * decision can be taken on any instance and the queue lives in the database, so an SSE stream
 * would itself have to poll the database on the server; two small indexed list requests every
 * few seconds per open tab cost about the same, survive proxies and instance restarts, and
 * need no connection held open. Hidden tabs do not poll (components/use-polling.ts).
 */
const POLL_MS = 2500;

/**
 * The queue, kept live. What each card lets the viewer do comes with the item (`viewer`),
 * computed by the server for the signed-in person on every refresh.
 */
export function ApprovalQueue(props: { initialPending: PendingView; initialHistory: ApprovalQueueItem[]; renderedAt: number }) {
  const [pending, setPending] = useState(props.initialPending);
  const [history, setHistory] = useState(props.initialHistory);
  // How many pending approvals to show, newest first: a page more with each "Show older".
  const [shown, setShown] = useState(PENDING_LIMIT);
  const [loadingMore, setLoadingMore] = useState(false);
  // Starts at the server's clock so the first client render matches the server's HTML.
  const [now, setNow] = useState(props.renderedAt);
  // Why the last refresh failed, and when the queue shown was read: a queue that stopped
  // updating (the session ended, the person left the tenant) must not pass for a live one.
  const [error, setError] = useState<string | null>(null);
  const [readAt, setReadAt] = useState(props.renderedAt);

  const refresh = useCallback(async () => {
    const [p, h] = await Promise.all([fetchPending(shown), fetchQueue('decided', HISTORY_LIMIT)]);
    if (p.ok) setPending(p.value);
    if (h.ok) setHistory(h.value.approvals);
    const failed = !p.ok ? p : !h.ok ? h : null;
    setError(failed ? failed.message : null);
    if (!failed) setReadAt(Date.now());
  }, [shown]);

  async function showOlder() {
    setLoadingMore(true);
    const next = shown + PENDING_LIMIT;
    const p = await fetchPending(next);
    setLoadingMore(false);
    if (!p.ok) {
      setError(p.message);
      return;
    }
    setShown(next);
    setPending(p.value);
  }

  usePolling(refresh, POLL_MS);
  useEffect(() => {
    const tick = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(tick);
  }, []);

  return (
    <>
      {error && (
        <p
          data-testid="approvals-stale"
          role="status"
          className="mb-4 rounded bg-amber-50 px-3 py-2 text-sm font-medium text-amber-800 ring-1 ring-amber-200"
        >
          Not updated: {error} Showing the queue as read at {formatUtc(new Date(readAt).toISOString())}; trying again.
        </p>
      )}
      <section aria-labelledby="pending-heading">
        <h2 id="pending-heading" className="mb-3 text-lg font-semibold">
          Pending{' '}
          <span data-testid="pending-count" className="text-zinc-500">
            ({pending.total})
          </span>
        </h2>
        {pending.approvals.length === 0 ? (
          <div data-testid="approvals-empty" className="card p-8 text-sm text-zinc-600">
            <h3 className="mb-1 text-base font-semibold text-zinc-900">Nothing waits for approval</h3>
            <p>Calls to tools that need approval appear here as agents make them; this page updates on its own.</p>
          </div>
        ) : (
          <>
            <ul className="space-y-3">
              {pending.approvals.map((item) => (
                <ApprovalCard key={item.id} item={item} now={now} onDecided={() => void refresh()} />
              ))}
            </ul>
            {pending.more && (
              <div className="mt-4 flex flex-wrap items-center gap-3 text-sm text-zinc-600">
                <p data-testid="pending-shown">
                  Showing the {pending.approvals.length} newest of {pending.total} pending approvals; older ones expire first.
                </p>
                <button
                  type="button"
                  data-testid="pending-show-older"
                  className="btn-secondary"
                  disabled={loadingMore}
                  onClick={() => void showOlder()}
                >
                  {loadingMore ? 'Loading…' : 'Show older'}
                </button>
              </div>
            )}
          </>
        )}
      </section>
      <section aria-labelledby="history-heading" className="mt-10">
        <h2 id="history-heading" className="mb-3 text-lg font-semibold">
          Decided and expired
        </h2>
        {history.length === 0 ? (
          <p className="text-sm text-zinc-500">No decisions yet.</p>
        ) : (
          <ul className="space-y-3">
            {history.map((item) => (
              <ApprovalCard key={item.id} item={item} now={now} onDecided={() => void refresh()} />
            ))}
          </ul>
        )}
      </section>
    </>
  );
}
