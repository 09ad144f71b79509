import type { Metadata } from 'next';
import { NotFoundNotice } from '@/components/not-found-notice';

export const metadata: Metadata = { title: 'Not found' };

/**
 * An address no route matches. It renders outside the dashboard shell, which needs a signed-in
 * member; the links lead there (or to sign-in) either way.
 */
export default function NotFound() {
  return (
    <main id="main" className="flex min-h-screen items-center justify-center px-4">
      <div className="w-full max-w-md">
        <p className="mb-6 text-center text-lg font-semibold tracking-tight">Toolgate</p>
        <NotFoundNotice />
      </div>
    </main>
  );
}
