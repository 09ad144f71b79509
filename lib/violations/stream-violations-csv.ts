import { iterateViolations, type ViolationFilters, type ViolationView } from './list-violations';
import { csvLine } from './csv';

const CSV_COLUMNS = [
  'created_at',
  'code',
  'type',
  'decision',
  'tool',
  'api_key_id',
  'api_key_name',
  'path',
  'message',
  'trace_id',
  'call_id',
  'violation_id',
] as const;

function row(v: ViolationView): string {
  return csvLine([
    v.created_at,
    v.code,
    v.type,
    v.decision,
    v.tool,
    v.api_key_id,
    v.api_key_name,
    v.path,
    v.message,
    v.trace_id,
    v.call_id,
    v.id,
  ]);
}

/**
 * The matching violations as CSV, newest first, streamed a page at a time so an export of
 * 100,000 rows never sits in memory whole. The first page is read before the stream is handed
 * back, so a database that is down still answers with an error status, not a broken download.
 */
export async function streamViolationsCsv(options: {
  tenantId: string;
  filters: ViolationFilters;
  max: number;
}): Promise<ReadableStream<Uint8Array>> {
  const encoder = new TextEncoder();
  const pages = iterateViolations({ tenantId: options.tenantId, filters: options.filters, max: options.max });
  const first = await pages.next();
  let head: string | null = csvLine([...CSV_COLUMNS]) + (first.done ? '' : first.value.map(row).join(''));
  let done = first.done ?? false;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (head !== null) {
        controller.enqueue(encoder.encode(head));
        head = null;
        if (done) controller.close();
        return;
      }
      const next = await pages.next();
      if (next.done) {
        done = true;
        controller.close();
        return;
      }
      controller.enqueue(encoder.encode(next.value.map(row).join('')));
    },
    async cancel() {
      await pages.return(undefined);
    },
  });
}
