'use client';

import { ErrorNotice } from '@/components/error-notice';

/** Shown when the member list cannot be read (e.g. the database is unreachable). */
export default function MembersError({ error, retry }: { error: unknown; retry: () => void }) {
  return <ErrorNotice title="The member list could not be loaded" error={error} retry={retry} />;
}
