import { repeatedFailureLog } from '../repeated-failure-log';

const failures = repeatedFailureLog('background job failed');

export interface IntervalJob {
  /** Resolves once the run in progress, if any, has finished. */
  stop(): Promise<void>;
}

/**
 * Runs `task` every `intervalMs`, never two runs at once on this instance (a slow run makes the
 * next tick skip, not pile up). A failing run is retried at the next tick and logged once a
 * minute at most while it keeps failing (repeated-failure-log.ts); the
 * tasks keep their state in the database, so nothing is lost between runs, restarts or
 * instances. The timer does not keep the process alive on its own.
 */
export function startIntervalJob(
  name: string,
  intervalMs: number,
  task: () => Promise<unknown>,
  options: { firstRunAfterMs?: number } = {},
): IntervalJob {
  let running: Promise<void> | null = null;
  let stopped = false;
  const tick = () => {
    if (running || stopped) return;
    running = task()
      .then(
        () => failures.succeeded(name, { job: name }),
        (error: unknown) => void failures.failed(name, error, { job: name }),
      )
      .finally(() => {
        running = null;
      });
  };
  const timer = setInterval(tick, intervalMs);
  timer.unref();
  // A long interval must not wait a whole interval after every start: an instance restarted
  // more often than that would otherwise never run the job.
  const first =
    options.firstRunAfterMs !== undefined && options.firstRunAfterMs < intervalMs ? setTimeout(tick, options.firstRunAfterMs) : null;
  first?.unref();
  return {
    async stop() {
      stopped = true;
      clearInterval(timer);
      if (first) clearTimeout(first);
      await running;
    },
  };
}
