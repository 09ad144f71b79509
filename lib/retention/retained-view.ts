import { parseRetainedPayload } from './retained-payload';

/** Records whose kept payloads are longer than this show only that they are kept (a trace holds up to 500 records). */
export const RETAINED_VIEW_MAX_CHARS = 64 * 1024;

/**
 * What a trace shows of a record's raw payloads, redacted as stored: `kept` with the parts
 * there are, `purged` when the chain holds their digest but the retention purge removed them,
 * null when none were ever kept (retention off).
 */
export type RetainedView =
  | { status: 'kept'; too_large: boolean; arguments?: unknown; context?: unknown; result?: unknown; error?: unknown; transformed_arguments?: unknown }
  | { status: 'purged' };

export function retainedView(row: { arguments: string | null; payload: string | null; payloadHash: string | null }): RetainedView | null {
  if (row.arguments === null && row.payload === null) return row.payloadHash ? { status: 'purged' } : null;
  if ((row.arguments?.length ?? 0) + (row.payload?.length ?? 0) > RETAINED_VIEW_MAX_CHARS) return { status: 'kept', too_large: true };
  const view: RetainedView = { status: 'kept', too_large: false };
  if (row.arguments !== null) {
    try {
      view.arguments = JSON.parse(row.arguments);
    } catch {
      view.arguments = row.arguments;
    }
  }
  const payload = parseRetainedPayload(row.payload);
  if (payload) {
    for (const key of ['context', 'result', 'error', 'transformed_arguments'] as const) if (payload[key] !== undefined) view[key] = payload[key];
  }
  return view;
}
