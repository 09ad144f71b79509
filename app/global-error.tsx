'use client';

import { ErrorNotice } from '@/components/error-notice';
import './globals.css';

/** The root layout itself failed: this replaces the whole document, so it brings its own. */
export default function GlobalError({ error, retry }: { error: unknown; retry: () => void }) {
  return (
    <html lang="en">
      <body className="min-h-screen font-sans">
        <title>Error · Toolgate</title>
        <main id="main" className="flex min-h-screen items-center justify-center px-4">
          <div className="w-full max-w-md">
            <p className="mb-6 text-center text-lg font-semibold tracking-tight">Toolgate</p>
            <ErrorNotice error={error} retry={retry} />
          </div>
        </main>
      </body>
    </html>
  );
}
