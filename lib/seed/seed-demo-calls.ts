import { newRequestId } from '../evidence/first-record-id';
import { db } from '../db';
import { decideApproval } from '../approvals/decide-approval';
import { PreCallRequestSchema, validatePreCall } from '../validation/validate-pre-call';
import { PostCallRequestSchema, validatePostCall } from '../validation/validate-post-call';
import { planDemoCalls, type DemoPreCall, type DemoStep } from './demo-calls';
import { atTime } from './seed-clock';
import { tenantEvidence } from '../evidence/tenant-key';

export interface DemoCallsReport {
  /** validate/pre calls by decision. */
  pre: Record<string, number>;
  /** validate/post checks by decision. */
  post: Record<string, number>;
  /** Approvals a person decided. */
  decided: number;
}

type Ran = { request: DemoPreCall; arguments: Record<string, unknown> };

/**
 * Plays the demo's script (lib/seed/demo-calls.ts) through the real decision path, each step
 * at its time in the past: validate/pre and validate/post with the agent's key, approvals
 * decided by a person. Evidence, violations, history counters, approvals and the chain are
 * what those calls made, as if they had been made then. A tool's result is reported only for
 * calls the gate let run. Does nothing when the tenant has calls already (seeded once).
 */
export async function seedDemoCalls(options: {
  tenantId: string;
  /** The agent's key, with the `validate` scope. */
  apiKeyId: string;
  /** Who decides the held calls (an admin of the tenant). */
  approverUserId: string;
  nowMs?: number;
}): Promise<DemoCallsReport | null> {
  const { tenantId } = options;
  if (await db().evidence.findFirst({ where: { ...(await tenantEvidence(tenantId)), kind: 'pre' }, select: { id: true } })) return null;
  const caller = { kind: 'api_key' as const, tenantId, apiKeyId: options.apiKeyId, scopes: ['validate' as const] };
  const report: DemoCallsReport = { pre: {}, post: {}, decided: 0 };
  const ran = new Map<string, Ran>();
  const holds = new Map<string, string>();

  const play = async (step: DemoStep) => {
    if (step.kind === 'pre') {
      const request = PreCallRequestSchema.parse(step.request);
      const response = await validatePreCall({ caller, request, ...newRequestId(), traceparent: null });
      count(report.pre, response.decision);
      if (response.decision === 'allow' || response.decision === 'transform')
        ran.set(request.call_id, { request: step.request, arguments: response.arguments ?? step.request.arguments });
      if (step.hold && response.approval) holds.set(step.hold, response.approval.id);
    } else if (step.kind === 'post') {
      const pre = ran.get(step.callId);
      if (!pre) return;
      const request = PostCallRequestSchema.parse({
        tool: pre.request.tool,
        call_id: step.callId,
        arguments: pre.arguments,
        context: pre.request.context,
        ...step.outcome,
      });
      const response = await validatePostCall({ caller, request, ...newRequestId(), traceparent: null });
      count(report.post, response.decision);
    } else {
      const id = holds.get(step.hold);
      if (!id) throw new Error(`demo seed: no approval was requested for ${step.hold}`);
      await decideApproval({
        tenantId,
        id,
        decision: step.decision,
        comment: step.comment,
        approver: { kind: 'session', userId: options.approverUserId, role: 'admin' },
        ...newRequestId(),
      });
      report.decided++;
    }
  };
  let lastCallAt: number | null = null;
  for (const step of planDemoCalls(options.nowMs ?? Date.now())) {
    await atTime(step.at, () => play(step));
    if (step.kind !== 'decide') lastCallAt = Math.max(lastCallAt ?? step.at, step.at);
  }
  // The calls were made without the key's bearer token, so nothing marked it used; the API keys
  // page said "never" for the key every trace names.
  if (lastCallAt !== null)
    await db().apiKey.updateMany({ where: { id: options.apiKeyId, tenantId }, data: { lastUsedAt: new Date(lastCallAt) } });
  return report;
}

function count(into: Record<string, number>, key: string): void {
  into[key] = (into[key] ?? 0) + 1;
}
