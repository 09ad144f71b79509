import type { RunToolApprovalItem } from '@openai/agents';
import type { ToolgateClient } from '../create-toolgate-client.ts';
import type { Approval, ApprovalRef } from '../wire-types.ts';
import { peekCall } from './checked-calls.ts';
import { deniedMessage, expiredMessage } from './model-messages.ts';

/**
 * How a paused run learns Toolgate's decision. The person decides in Toolgate (its approval
 * queue, or POST /api/v1/approvals/{id}/decision); these helpers carry that decision into the
 * framework's run state, so the resumed run executes exactly the calls Toolgate approved.
 */

/** What these helpers need of a run result (`RunResult` and `StreamedRunResult` both fit). */
export interface PausedRun {
  /** The run's RunContext: where the tools kept what Toolgate answered. */
  readonly runContext: object;
  readonly interruptions: RunToolApprovalItem[];
  readonly state: {
    approve(item: RunToolApprovalItem): void;
    reject(item: RunToolApprovalItem, options?: { message?: string }): void;
  };
}

export interface ToolgateApprovalRequest {
  /** The framework's interruption: pass it to `state.approve` / `state.reject` yourself, or let `settleToolgateApprovals` do it. */
  item: RunToolApprovalItem;
  /** The contract the call was checked against. */
  contract: string;
  /** Toolgate's approval for the call: where a person decides it (`poll_url` is relative to the Toolgate base URL). */
  approval: ApprovalRef;
}

interface Found extends ToolgateApprovalRequest {
  client: ToolgateClient;
}

function find(run: PausedRun): Found[] {
  return run.interruptions.flatMap((item) => {
    if (item.rawItem.type !== 'function_call') return [];
    const call = peekCall(run.runContext, item.rawItem.callId);
    if (!call || call.tool !== item.name || call.outcome.kind !== 'answer' || !call.outcome.response.approval) return [];
    return [{ item, contract: call.contract, approval: call.outcome.response.approval, client: call.client }];
  });
}

/** The run's interruptions that wait for a Toolgate approval; other interruptions are not listed. */
export function toolgateApprovals(run: PausedRun): ToolgateApprovalRequest[] {
  return find(run).map(({ item, contract, approval }) => ({ item, contract, approval }));
}

export type SettledApproval =
  | { item: RunToolApprovalItem; contract: string; outcome: Approval['status']; approval: Approval }
  | { item: RunToolApprovalItem; contract: string; outcome: 'unreachable'; error: unknown };

export interface SettleOptions {
  /** How long to wait for people to decide; default until each approval is decided or expires. */
  timeoutMs?: number;
  signal?: AbortSignal;
}

/**
 * Waits for Toolgate's decision on each held call of the paused run and records it in the run
 * state: approved → `state.approve(item)`, denied or expired → `state.reject(item)` with a
 * message the model reads. Calls still pending when `timeoutMs` runs out (or whose approval
 * could not be read) are left as they are; settle again later. Resume with `run(agent, result.state)`.
 */
export async function settleToolgateApprovals(run: PausedRun, options: SettleOptions = {}): Promise<SettledApproval[]> {
  const { timeoutMs, signal } = options;
  const settled = await Promise.all(
    find(run).map(async ({ item, contract, approval: ref, client }): Promise<SettledApproval> => {
      try {
        const approval = await client.waitForApproval(ref.id, { timeoutMs, signal });
        return { item, contract, outcome: approval.status, approval };
      } catch (error) {
        if (signal?.aborted) throw error;
        return { item, contract, outcome: 'unreachable', error };
      }
    }),
  );
  for (const entry of settled) {
    if (entry.outcome === 'approved') run.state.approve(entry.item);
    else if (entry.outcome === 'denied') run.state.reject(entry.item, { message: deniedMessage(entry.contract, entry.approval.comment) });
    else if (entry.outcome === 'expired') run.state.reject(entry.item, { message: expiredMessage(entry.contract) });
  }
  return settled;
}
