import type { ApprovalQueueItem, ApprovalQueuePage, QueueFilter } from '@/lib/approvals/approval-queue-types';
import { pageTenantHeaders } from '@/components/page-tenant';

/**
 * The queue page's calls to the approvals API: same-origin fetches, authenticated by the
 * session cookie, so the page decides through exactly the endpoint admin keys use.
 */

/** What the page shows: the pending queue, and the latest decisions below it. */
export const PENDING_LIMIT = 50;
export const HISTORY_LIMIT = 20;

export type DecisionBody = { decision: 'approve' | 'deny' | 'escalate'; comment?: string; arguments?: Record<string, unknown> };

export interface DecisionFailure {
  status: number;
  code: string;
  message: string;
  /** For 422 arguments_invalid: the AXAG issues the edited arguments have. */
  issues: { code: string; path: string; message: string }[];
}

/** A queue read: the page, or why it could not be read (said on the page, which keeps what it has). */
export type QueueRead<T> = { ok: true; value: T } | { ok: false; message: string };

export async function fetchQueue(status: QueueFilter, limit: number, cursor?: string): Promise<QueueRead<ApprovalQueuePage>> {
  const query = new URLSearchParams({ status, limit: String(limit), ...(cursor ? { cursor } : {}) });
  let response: Response;
  try {
    response = await fetch(`/api/v1/approvals?${query.toString()}`, {
      credentials: 'same-origin',
      headers: { accept: 'application/json', ...pageTenantHeaders() },
      cache: 'no-store',
    });
  } catch {
    // Offline for a moment: the page keeps showing what it has; the next poll tries again.
    return { ok: false, message: 'Toolgate could not be reached.' };
  }
  if (response.ok) return { ok: true, value: (await response.json()) as ApprovalQueuePage };
  if (response.status === 401) return { ok: false, message: 'Your session has ended; sign in again.' };
  const body = (await response.json().catch(() => ({}))) as { error?: { message?: string } };
  return { ok: false, message: body.error?.message ?? `The server answered ${response.status}.` };
}

/** The pending approvals the page shows: the newest `shown`, with how many are pending in all. */
export interface PendingView {
  approvals: ApprovalQueueItem[];
  total: number;
  /** Older pending approvals exist beyond those shown. */
  more: boolean;
}

/**
 * The newest `shown` pending approvals, a page of PENDING_LIMIT at a time (the API answers at
 * most 100 per request), and the pending count.
 */
export async function fetchPending(shown: number): Promise<QueueRead<PendingView>> {
  const approvals: ApprovalQueueItem[] = [];
  let cursor: string | undefined;
  for (;;) {
    const read = await fetchQueue('pending', PENDING_LIMIT, cursor);
    if (!read.ok) return read;
    const page = read.value;
    approvals.push(...page.approvals);
    if (!page.next_cursor || approvals.length >= shown)
      return { ok: true, value: { approvals, total: page.counts.pending, more: page.next_cursor !== null } };
    cursor = page.next_cursor;
  }
}

export async function sendDecision(id: string, body: DecisionBody): Promise<{ ok: true } | { ok: false; failure: DecisionFailure }> {
  let response: Response;
  try {
    response = await fetch(`/api/v1/approvals/${encodeURIComponent(id)}/decision`, {
      method: 'POST',
      credentials: 'same-origin',
      headers: { accept: 'application/json', 'content-type': 'application/json', ...pageTenantHeaders() },
      body: JSON.stringify(body),
    });
  } catch (error) {
    return {
      ok: false,
      failure: {
        status: 0,
        code: 'network',
        message: `Could not reach Toolgate: ${error instanceof Error ? error.message : String(error)}`,
        issues: [],
      },
    };
  }
  if (response.ok) return { ok: true };
  const parsed = (await response.json().catch(() => ({}))) as {
    error?: { code?: string; message?: string; details?: { errors?: { code: string; path: string; message: string }[] } };
  };
  return {
    ok: false,
    failure: {
      status: response.status,
      code: parsed.error?.code ?? `http_${response.status}`,
      message: parsed.error?.message ?? `The server answered ${response.status}.`,
      issues: (parsed.error?.details?.errors ?? []).slice(0, 20),
    },
  };
}

/** "4m 05s", "1h 02m", "expired". */
export function formatTimeLeft(seconds: number): string {
  if (seconds <= 0) return 'expired';
  const h = Math.floor(seconds / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  const s = seconds % 60;
  if (h > 0) return `${h}h ${String(m).padStart(2, '0')}m`;
  return `${m}m ${String(s).padStart(2, '0')}s`;
}

/** Same rendering on server and client (no time zone involved): "2026-11-22 03:15:04 UTC". */
export function formatUtc(iso: string | null): string {
  return iso ? `${iso.slice(0, 19).replace('T', ' ')} UTC` : '—';
}
