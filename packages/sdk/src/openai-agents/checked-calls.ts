import type { ToolgateClient } from '../create-toolgate-client.ts';
import type { ValidationResponse } from '../wire-types.ts';

/**
 * validate/pre's answer for a tool call, kept from the moment the framework asks the tool's
 * `needsApproval` until the tool runs (the same turn, or after the run paused for an approval).
 * It is keyed by the run's RunContext, which the framework keeps across a pause and resume
 * (`run(agent, result.state)`), so the entries go away with the run. A run restored from a
 * serialized state has a new RunContext and none of them: the tool then checks the call again,
 * redeeming an approval granted meanwhile (see `decideCall`).
 */

export type PreOutcome = { kind: 'answer'; response: ValidationResponse } | { kind: 'unreachable'; error: unknown };

export interface CheckedCall {
  /** The function tool's name, as the framework's approval item names it. */
  tool: string;
  contract: string;
  client: ToolgateClient;
  /** The arguments that were checked, as JSON: the tool runs only with exactly these (or what Toolgate returns instead). */
  argumentsJson: string;
  /** The tool's own schema refused the arguments too, so the framework will not run `execute` for this call. */
  inputRejected: boolean;
  outcome: PreOutcome;
}

const byRun = new WeakMap<object, Map<string, CheckedCall>>();

export function rememberCall(runContext: object | undefined, callId: string, call: CheckedCall): void {
  if (!runContext) return;
  let calls = byRun.get(runContext);
  if (!calls) byRun.set(runContext, (calls = new Map()));
  calls.set(callId, call);
}

export function peekCall(runContext: object | undefined, callId: string | undefined): CheckedCall | undefined {
  if (!runContext || callId === undefined) return undefined;
  return byRun.get(runContext)?.get(callId);
}

/** The checked call, forgotten: each answer is used for one run of the tool at most. */
export function takeCall(runContext: object | undefined, callId: string | undefined): CheckedCall | undefined {
  const call = peekCall(runContext, callId);
  if (call) byRun.get(runContext!)?.delete(callId!);
  return call;
}

/**
 * The one call of `tool` in this run whose input the tool's schema refused, forgotten. The
 * framework tells the tool's error function about such a call without saying which call it was
 * (it withholds the model's input from callbacks unless sensitive data logging is on), so the
 * call is known only when it is the only one; with two at once neither is guessed.
 */
export function takeLoneRejectedInput(runContext: object | undefined, tool: string): CheckedCall | undefined {
  const calls = runContext ? byRun.get(runContext) : undefined;
  if (!calls) return undefined;
  const rejected = [...calls].filter(([, call]) => call.tool === tool && call.inputRejected);
  if (rejected.length !== 1) return undefined;
  const [callId, call] = rejected[0]!;
  calls.delete(callId);
  return call;
}
