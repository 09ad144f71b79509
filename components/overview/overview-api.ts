import type { Overview } from '@/lib/overview/overview-types';
import type { EvidenceVerification, VerificationRunView } from '@/lib/evidence/verification/verification-types';
import { pageTenantHeaders } from '@/components/page-tenant';

/**
 * The overview page's reads: same-origin requests authenticated by the session cookie, through
 * the endpoints an admin key uses (GET /api/v1/overview, GET /api/v1/evidence/verify, the
 * verification runs). The browser sends its own Origin on the POST, which the same-origin rule needs.
 */

/** GET /api/v1/evidence/verify's answer: the chain from the newest checkpoint (or all of it). */
export type ChainVerificationView = EvidenceVerification;

/** A refusal keeps the API's error code and details, for an answer the page words itself. */
export type Fetched<T> = { ok: true; value: T } | { ok: false; message: string; code?: string; details?: Record<string, unknown> };

async function requestJson<T>(path: string, method: 'GET' | 'POST' = 'GET'): Promise<Fetched<T>> {
  let response: Response;
  try {
    response = await fetch(path, {
      method,
      credentials: 'same-origin',
      headers: { accept: 'application/json', ...pageTenantHeaders() },
      cache: 'no-store',
    });
  } catch {
    return { ok: false, message: 'Toolgate could not be reached.' };
  }
  if (response.ok) return { ok: true, value: (await response.json()) as T };
  if (response.status === 401) return { ok: false, message: 'Your session has ended; sign in again.' };
  const body = (await response.json().catch(() => ({}))) as {
    error?: { message?: string; code?: string; details?: Record<string, unknown> };
  };
  return {
    ok: false,
    message: body.error?.message ?? `The server answered ${response.status}.`,
    code: body.error?.code,
    details: body.error?.details,
  };
}

export const fetchOverview = () => requestJson<Overview>('/api/v1/overview');

export const fetchChainVerification = () => requestJson<ChainVerificationView>('/api/v1/evidence/verify');

/** Starts a full re-verification, or answers the one already queued or running. */
export const startVerificationRun = () => requestJson<VerificationRunView>('/api/v1/evidence/verify/runs', 'POST');

export const fetchVerificationRun = (id: string) =>
  requestJson<VerificationRunView>(`/api/v1/evidence/verify/runs/${encodeURIComponent(id)}`);
