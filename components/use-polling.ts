import { useEffect, useRef } from 'react';

/**
 * Keeps a page live by short polling: `refresh` runs every `intervalMs` while the tab is
 * visible, and at once when a hidden tab is shown again, so a returning reader never looks at
 * figures older than they need be. Hidden tabs do not poll, and a refresh still running when
 * the next one is due is not doubled (a slow database is not asked twice as often).
 */
export function usePolling(refresh: () => Promise<unknown>, intervalMs: number): void {
  const latest = useRef(refresh);
  useEffect(() => {
    latest.current = refresh;
  }, [refresh]);

  useEffect(() => {
    let running = false;
    const run = () => {
      if (document.hidden || running) return;
      running = true;
      latest
        .current()
        .catch(() => undefined)
        .finally(() => {
          running = false;
        });
    };
    const timer = setInterval(run, intervalMs);
    document.addEventListener('visibilitychange', run);
    return () => {
      clearInterval(timer);
      document.removeEventListener('visibilitychange', run);
    };
  }, [intervalMs]);
}
