import { verifyEvidence } from './verify-evidence';
import type { EvidenceVerification, VerifyMode } from './verification-types';

interface Flight {
  answer: Promise<EvidenceVerification>;
  /** Requests still waiting for the answer; the walk stops when the last one leaves. */
  waiting: number;
  walk: AbortController;
}

/**
 * Verifies running in this process, by tenant and mode. On globalThis, as the verification runs'
 * state is: Next's bundle of the route handlers and the server's own copy of this module share
 * one process.
 */
const shared = globalThis as unknown as { toolgateVerifyFlights?: Map<string, Flight> };
const flights: Map<string, Flight> = (shared.toolgateVerifyFlights ??= new Map());

/**
 * A verify asked for while the same tenant's verify of the same mode runs in this process joins
 * it and gets its answer, instead of walking the same records again beside it: a walk reads up
 * to TOOLGATE_VERIFY_MAX_RECORDS (seconds of this process's time), and two admins (or one with a
 * script) asking at once used to cost a walk each, slowing every tenant's calls on the instance.
 * The walk stops when every request waiting for it has gone away; one that leaves alone gets its
 * own signal's reason (client_closed), and the others still get the answer.
 */
export function verifyEvidenceJoined(options: {
  tenantId: string;
  mode?: VerifyMode;
  signal?: AbortSignal;
}): Promise<EvidenceVerification> {
  const { signal } = options;
  if (signal?.aborted) return Promise.reject(signal.reason as Error);
  const key = `${options.tenantId}\u0000${options.mode ?? 'incremental'}`;
  let flight = flights.get(key);
  if (!flight) {
    const walk = new AbortController();
    const started: Flight = {
      walk,
      waiting: 0,
      answer: verifyEvidence({ tenantId: options.tenantId, mode: options.mode, signal: walk.signal }).finally(() => {
        if (flights.get(key) === started) flights.delete(key);
      }),
    };
    // Whoever joins first may not be the one who stays: no rejection may go unhandled.
    started.answer.catch(() => undefined);
    flights.set(key, started);
    flight = started;
  }
  const joined = flight;
  joined.waiting++;
  return new Promise<EvidenceVerification>((resolve, reject) => {
    const leave = () => {
      joined.waiting--;
      if (joined.waiting === 0) {
        // Nobody reads it now: a request from here on starts a walk of its own.
        if (flights.get(key) === joined) flights.delete(key);
        joined.walk.abort(signal?.reason);
      }
      reject(signal?.reason);
    };
    signal?.addEventListener('abort', leave, { once: true });
    joined.answer.then(
      (answer) => {
        signal?.removeEventListener('abort', leave);
        resolve(answer);
      },
      (error: unknown) => {
        signal?.removeEventListener('abort', leave);
        reject(error);
      },
    );
  });
}
