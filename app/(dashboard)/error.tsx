'use client';

import { ErrorNotice } from '@/components/error-notice';

/**
 * A dashboard page that failed to render, inside the shell so the navigation still works.
 * retry() asks the server again (a reset alone would re-render the same failed payload).
 */
export default function DashboardError({ error, retry }: { error: unknown; retry: () => void }) {
  return <ErrorNotice error={error} retry={retry} />;
}
