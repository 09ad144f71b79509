import { db } from '../db';
import { databaseFileProblem, type DatabaseFileProblem } from '../db/database-file';

/** How long the database may take to answer before the instance is reported unavailable. */
export const HEALTH_DB_TIMEOUT_MS = 2_000;

export type Health =
  { status: 'ok' } | { status: 'unavailable'; reason: 'database_unreachable' | 'database_timeout' | DatabaseFileProblem };

/**
 * Whether this instance can serve: it answers, and its database answers a trivial query within
 * HEALTH_DB_TIMEOUT_MS. What a load balancer or an orchestrator's readiness probe asks; it says
 * nothing about which database or why (no credentials, addresses or errors), since it is open.
 */
export async function checkHealth(timeoutMs = HEALTH_DB_TIMEOUT_MS): Promise<Health> {
  // The old file still answers queries through its open connections: asked first.
  const fileProblem = databaseFileProblem();
  if (fileProblem) return { status: 'unavailable', reason: fileProblem };
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), timeoutMs);
  });
  try {
    const answer = await Promise.race([db().$queryRaw`SELECT 1`.then(() => 'ok' as const), timedOut]);
    return answer === 'ok' ? { status: 'ok' } : { status: 'unavailable', reason: 'database_timeout' };
  } catch {
    return { status: 'unavailable', reason: 'database_unreachable' };
  } finally {
    clearTimeout(timer);
  }
}
