/**
 * What the traces list gives for each call, apart from the query that reads it (list-traces.ts),
 * so the live list in the browser can hold the same rows without reaching the database.
 */

export interface ShadowSummary {
  kind: string;
  id: string;
  version: string;
  decision: string;
  rule: string | null;
  differs: boolean;
}

export interface TraceSummary {
  trace_id: string;
  call_id: string;
  /** Sequence number of the record this row stands for (the trace's first; with shadow_differs, the differing one). */
  seq: number;
  kind: string;
  started_at: string;
  tool: string;
  decision: string;
  api_key_id: string | null;
  api_key_name: string | null;
  contract_version: string | null;
  policy: { id: string; version: string | null; rule: string | null } | null;
  shadow_differs: boolean;
  /** Only when listing shadow differences: the shadow evaluations of that record. */
  shadow?: ShadowSummary[];
  /** How many evidence records the trace has, and the last one's kind and decision. */
  records: number;
  last_kind: string;
  last_decision: string;
  /** From the start of the first check to the commit of the last record (tool time included). */
  duration_ms: number;
  /** Toolgate's own time over all the trace's checks, and the tool's run time as reported. */
  checks_ms: number;
  execution_ms: number | null;
}

export interface TracePage {
  traces: TraceSummary[];
  next_cursor: string | null;
  /** Set when the scan window ended the page: records older than this were not searched yet (follow next_cursor). */
  searched_back_to: string | null;
  /** The search walked records a scan window at a time (`contains`, or a prefix naming too many calls), not an index. */
  search_scanned: boolean;
}
