import { afterEach, describe, expect, it, vi } from 'vitest';
import { log } from './log';
import { errorLine, repeatedFailureLog } from './repeated-failure-log';

afterEach(() => vi.restoreAllMocks());

describe('repeatedFailureLog', () => {
  it('logs the first failure, then once per interval with how many went unlogged, and one line when it works again', () => {
    const error = vi.spyOn(log, 'error');
    const info = vi.spyOn(log, 'info');
    const failures = repeatedFailureLog('background job failed', 60_000);
    const down = new Error(
      "\nInvalid `db().webhook.findMany()` invocation in\n/repo/lib/x.ts:44:43\n\n  43\n→ 44 const rows = awa\nCan't reach database server at `127.0.0.1:5432`",
    );
    expect(failures.failed('webhooks', down, { job: 'webhooks' }, 1_000)).toBe(true);
    for (let t = 2_000; t < 60_000; t += 1_000) expect(failures.failed('webhooks', down, { job: 'webhooks' }, t)).toBe(false);
    // Another job is its own key.
    expect(failures.failed('sweeper', down, { job: 'sweeper' }, 2_000)).toBe(true);
    expect(failures.failed('webhooks', down, { job: 'webhooks' }, 61_000)).toBe(true);
    expect(error.mock.calls.map(([message, fields]) => [message, fields?.job, fields?.failures_since_last_line])).toEqual([
      ['background job failed', 'webhooks', 1],
      ['background job failed', 'sweeper', 1],
      ['background job failed', 'webhooks', 59],
    ]);
    expect(error.mock.calls[0]?.[1]?.error).toBe("Can't reach database server at `127.0.0.1:5432`");

    failures.succeeded('webhooks', { job: 'webhooks' });
    failures.succeeded('webhooks', { job: 'webhooks' });
    expect(info.mock.calls).toEqual([['background job failed: works again', { job: 'webhooks', failures_since_last_line: 0 }]]);
  });

  it('reads an error as one line: the cause, with a code it does not already name, bounded', () => {
    expect(errorLine(Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' }))).toBe(
      'connect ECONNREFUSED 127.0.0.1:5432',
    );
    expect(errorLine(Object.assign(new Error('Timed out fetching a new connection'), { code: 'P2024' }))).toBe(
      'P2024: Timed out fetching a new connection',
    );
    expect(errorLine('x'.repeat(1000))).toHaveLength(300);
  });
});
