'use client';

/** How the last save, publish or format switch went; null when there is nothing to say. */
export type Notice = { tone: 'error' | 'success'; text: string; problems?: string[] } | null;

export function StudioNotice({ notice }: { notice: NonNullable<Notice> }) {
  return (
    <div
      role={notice.tone === 'error' ? 'alert' : 'status'}
      className={`mb-3 rounded-md border px-4 py-2 text-sm ${notice.tone === 'error' ? 'border-red-200 bg-red-50 text-red-800' : 'border-emerald-200 bg-emerald-50 text-emerald-800'}`}
    >
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
