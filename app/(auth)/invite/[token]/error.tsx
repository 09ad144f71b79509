'use client';

/** Shown when the invitation cannot be read (e.g. the database is unreachable); never a crash. */
export default function InvitationError({ reset }: { error: Error; reset: () => void }) {
  return (
    <main className="flex min-h-screen items-center justify-center px-4">
      <div role="alert" className="card w-full max-w-md p-6 text-sm">
        <h1 className="mb-1 text-base font-semibold">This invitation could not be loaded</h1>
        <p className="mb-4 text-zinc-600">Nothing was changed. Try again in a moment; the link stays valid until it expires.</p>
        <button type="button" onClick={reset} className="btn-secondary">
          Try again
        </button>
      </div>
    </main>
  );
}
