'use client';

import { ErrorNotice } from '@/components/error-notice';

/** Shown when the servers or a drift cannot be read (e.g. the database is unreachable). */
export default function McpError({ error, retry }: { error: unknown; retry: () => void }) {
  return <ErrorNotice title="The MCP servers could not be loaded" error={error} retry={retry} />;
}
