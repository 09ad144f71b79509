'use client';

import { useEffect, useRef, useState } from 'react';
import type { VerificationRunView } from '@/lib/evidence/verification/verification-types';
import { formatCount, formatInstant } from '@/components/dashboard/format';
import { CHAIN_BREAK_REASONS } from './chain-break-reasons';
import { fetchVerificationRun, startVerificationRun } from './overview-api';

const POLL_MS = 1_000;

type RunStatus =
  { state: 'idle' } | { state: 'starting' } | { state: 'run'; run: VerificationRunView } | { state: 'error'; message: string };

function RunOutcome({ run }: { run: VerificationRunView }) {
  if (run.state === 'queued' || run.state === 'running') {
    const percent = run.total > 0 ? Math.floor((run.checked / run.total) * 100) : 0;
    return (
      <p className="mt-2 text-xs text-zinc-700" role="status">
        Re-verifying: {formatCount(run.checked)} of {formatCount(run.total)} records checked ({percent}%).
      </p>
    );
  }
  if (run.state === 'passed')
    return (
      <p className="mt-2 text-xs text-emerald-800" role="status">
        Every one of the {formatCount(run.total)} records read again and verified ({formatInstant(run.finishedAt)}).
      </p>
    );
  return (
    <p className="mt-2 text-xs text-red-700" role="status">
      {run.firstBroken
        ? `Broken at record ${formatCount(run.firstBroken.seq)}: ${CHAIN_BREAK_REASONS[run.firstBroken.reason]}`
        : 'The re-verification was interrupted too often to finish; start it again'}{' '}
      ({formatInstant(run.finishedAt)}).
    </p>
  );
}

/**
 * A full re-verification of every record, as a background run on the server: started here (or
 * the one already running is shown), then polled until it ends. Leaving the page does not stop it.
 */
export function VerificationRun() {
  const [status, setStatus] = useState<RunStatus>({ state: 'idle' });
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  useEffect(
    () => () => {
      if (timer.current) clearTimeout(timer.current);
    },
    [],
  );
  const follow = (run: VerificationRunView) => {
    setStatus({ state: 'run', run });
    if (run.state !== 'queued' && run.state !== 'running') return;
    timer.current = setTimeout(() => {
      void fetchVerificationRun(run.id).then((fetched) =>
        fetched.ok ? follow(fetched.value) : setStatus({ state: 'error', message: fetched.message }),
      );
    }, POLL_MS);
  };
  const start = async () => {
    setStatus({ state: 'starting' });
    const fetched = await startVerificationRun();
    if (fetched.ok) follow(fetched.value);
    else setStatus({ state: 'error', message: fetched.message });
  };
  const busy = status.state === 'starting' || (status.state === 'run' && (status.run.state === 'queued' || status.run.state === 'running'));
  return (
    <div className="mt-2" data-testid="overview-chain-run">
      <button type="button" className="btn-secondary text-xs" onClick={() => void start()} disabled={busy}>
        {busy ? 'Re-verifying every record…' : 'Re-verify every record'}
      </button>
      {status.state === 'run' && <RunOutcome run={status.run} />}
      {status.state === 'error' && <p className="mt-2 text-xs text-red-700">{status.message}</p>}
    </div>
  );
}
