import type { ChainBreakReason, Overview } from '@/lib/overview/overview-types';

/**
 * The overview page's reads: same-origin GETs authenticated by the session cookie, through the
 * endpoints an admin key uses (GET /api/v1/overview, GET /api/v1/evidence/verify).
 */

/** GET /api/v1/evidence/verify's answer: the whole chain walked. */
export interface ChainVerificationView {
  valid: boolean;
  records: number;
  head: { seq: number; hash: string } | null;
  firstBroken: { seq: number; id: string; reason: ChainBreakReason } | null;
}

export type Fetched<T> = { ok: true; value: T } | { ok: false; message: string };

async function getJson<T>(path: string): Promise<Fetched<T>> {
  let response: Response;
  try {
    response = await fetch(path, { credentials: 'same-origin', headers: { accept: 'application/json' }, cache: 'no-store' });
  } catch {
    return { ok: false, message: 'Toolgate could not be reached.' };
  }
  if (response.ok) return { ok: true, value: (await response.json()) as T };
  if (response.status === 401) return { ok: false, message: 'Your session has ended; sign in again.' };
  const body = (await response.json().catch(() => ({}))) as { error?: { message?: string } };
  return { ok: false, message: body.error?.message ?? `The server answered ${response.status}.` };
}

export const fetchOverview = () => getJson<Overview>('/api/v1/overview');

export const fetchChainVerification = () => getJson<ChainVerificationView>('/api/v1/evidence/verify');
