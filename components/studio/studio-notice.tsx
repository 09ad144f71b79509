'use client';

import { useEffect } from 'react';

/** How the last save, publish or format switch went; null when there is nothing to say. */
export type Notice = { tone: 'error' | 'success'; text: string; problems?: string[] } | null;

/** How long a confirmation stays: long enough to read, and it can be closed sooner. */
const CONFIRMATION_MS = 10_000;

/** What went wrong, above the editor, until the next action: it may list what to fix. */
export function StudioNotice({ notice }: { notice: NonNullable<Notice> }) {
  return (
    <div role="alert" className="mb-3 rounded-md border border-red-200 bg-red-50 px-4 py-2 text-sm text-red-800">
      {notice.text}
      {notice.problems && notice.problems.length > 0 && (
        <ul className="mt-1 list-disc pl-5">
          {notice.problems.map((p) => (
            <li key={p}>{p}</li>
          ))}
        </ul>
      )}
    </div>
  );
}

/**
 * A confirmation ("Saved draft 1.2.0", "Published 1.2.0 (enforced)") in a corner of the window,
 * wherever the author is scrolled. The live region is always there, so screen readers announce
 * what appears in it.
 */
export function StudioToast({ notice, onClose }: { notice: Notice; onClose(): void }) {
  const shown = notice?.tone === 'success' ? notice : null;
  useEffect(() => {
    if (!shown) return;
    const timer = setTimeout(onClose, CONFIRMATION_MS);
    return () => clearTimeout(timer);
  }, [shown, onClose]);
  return (
    <div role="status" aria-live="polite" className="pointer-events-none fixed right-4 bottom-4 z-50 flex justify-end">
      {shown && (
        <div
          className="pointer-events-auto flex max-w-md items-start gap-3 rounded-md border border-emerald-200 bg-emerald-50 px-4 py-3 text-sm text-emerald-900 shadow-lg"
          data-testid="studio-toast"
        >
          <span aria-hidden className="font-bold text-emerald-700">
            ✓
          </span>
          <span className="min-w-0 flex-1">{shown.text}</span>
          <button type="button" className="text-emerald-800 hover:text-emerald-950" onClick={onClose} aria-label="Dismiss">
            ×
          </button>
        </div>
      )}
    </div>
  );
}
