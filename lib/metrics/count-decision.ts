import { CALL_EVIDENCE_KINDS } from '../evidence/evidence-kinds';
import type { CommittedEvidence } from '../evidence/evidence-observers';
import { toolgateMetrics } from './metrics-registry';

const CALL_KINDS: ReadonlySet<string> = new Set(CALL_EVIDENCE_KINDS);

/** A call whose contract was not found (unknown tool, unknown version, or refused before the lookup). */
export const UNRESOLVED_TOOL_LABEL = 'unresolved';
/** A decision with no error (an allow, an approval decision). */
export const NO_CODE_LABEL = 'none';

/**
 * Counts one committed evidence record: every record's commit latency, and for calls and
 * approval decisions the decision and its latency. It runs on the request's path after the
 * commit, so it only increments in memory. Administrative records (members, settings, purges)
 * are not decisions and are left out of the decision counts.
 */
export function countDecision(committed: CommittedEvidence): void {
  const { input } = committed;
  const metrics = toolgateMetrics();
  const tenant = input.tenantId;
  metrics.commitSeconds.observe({ tenant }, seconds(committed.commitMs));
  if (!CALL_KINDS.has(input.kind)) return;
  // A tool name is the agent's to choose until a contract has vouched for it: only names that
  // resolved a contract (and the pipeline's own fixed names) take one of the bounded labels.
  const resolved = input.contractVersion != null || input.kind === 'pipeline' || input.kind === 'manifest';
  const tool = resolved ? metrics.tools.value(input.tool) : UNRESOLVED_TOOL_LABEL;
  const first = input.errors[0];
  const code = first ? metrics.codes.value(first.code) : NO_CODE_LABEL;
  metrics.decisions.inc({ tenant, kind: input.kind, tool, decision: input.decision, code });
  // Approval decisions are people's, recorded with no duration of their own.
  if (input.kind !== 'approval_decision') {
    metrics.decisionSeconds.observe({ tenant, kind: input.kind, decision: input.decision }, seconds(input.durationMs));
  }
}

function seconds(ms: number): number {
  return Number.isFinite(ms) && ms > 0 ? ms / 1000 : 0;
}
