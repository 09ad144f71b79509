import { describeValue } from '../describe-value.ts';
import { ToolgateError } from '../toolgate-error.ts';
import type { Approval } from '../wire-types.ts';

/**
 * What the model reads when a Toolgate tool did not run or its result is withheld. Each says
 * whether the tool ran and what to do next, because a model that cannot tell a refused call from
 * a failed one tends to repeat it. Toolgate's own `llm_message` is used whenever there is one.
 */

function clip(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

function reason(error: unknown): string {
  if (error instanceof ToolgateError) return `${error.code}: ${clip(error.message, 300)}`;
  return clip(error instanceof Error ? error.message : describeValue(error), 300);
}

export function unreachableMessage(contract: string, error: unknown): string {
  return `Toolgate could not check this call to ${contract} (${reason(error)}); the tool did not run. Try again later.`;
}

export function resultUncheckedMessage(contract: string, error: unknown): string {
  return `${contract} ran (so its side effects may have happened), but Toolgate could not check its result (${reason(error)}), so it is not shown. Do not call it again to get the result; tell the user the outcome is unconfirmed.`;
}

export function refusedMessage(contract: string, llmMessage: string | undefined, decision: string): string {
  return llmMessage ?? `The call to ${contract} was refused (decision: ${decision}); it did not run.`;
}

export function resultRefusedMessage(name: string, llmMessage: string | undefined): string {
  return `${name} ran (so its side effects may have happened), but Toolgate refused its result, so it is not shown. ${llmMessage ?? ''}`.trim();
}

export function reshapedArgumentsMessage(contract: string): string {
  return `Toolgate cleared this call to ${contract} with changed arguments (an approver's edit or a policy's transform) that the tool's own schema does not accept, so it did not run. Tell the user the call could not be made as approved.`;
}

/** For a held call the framework let through while Toolgate's approval says otherwise. */
export function approvalOutcomeMessage(contract: string, approval: Approval): string {
  switch (approval.status) {
    case 'pending':
      return `The call to ${contract} is still waiting for approval ${approval.id} in Toolgate; it did not run. Tell the user it awaits approval and do not repeat it meanwhile.`;
    case 'denied':
      return deniedMessage(contract, approval.comment);
    case 'expired':
      return expiredMessage(contract);
    default:
      return approval.token_used
        ? `The approval for this call to ${contract} was already used; the call did not run again. Do not repeat it.`
        : `The approval for this call to ${contract} lapsed before the call could use it; the call did not run. Ask the user whether to request approval again.`;
  }
}

export function deniedMessage(contract: string, comment: string | null): string {
  return `An approver denied this call to ${contract}${comment ? ` ("${clip(comment, 300)}")` : ''}; it did not run. Do not retry; tell the user the call was denied.`;
}

export function expiredMessage(contract: string): string {
  return `The approval for this call to ${contract} expired before anyone decided; the call did not run. Ask the user whether to request approval again.`;
}
