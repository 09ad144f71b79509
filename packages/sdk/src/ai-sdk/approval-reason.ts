import type { ModelMessage } from 'ai';
import type { ApprovalRef, ValidationResponse } from '../wire-types.ts';

/**
 * The AI SDK's tool-approval-request carries a free-text `reason` (shown to whoever approves) and
 * travels with the conversation's messages. The adapter writes Toolgate's approval id at its
 * start, so the id survives wherever the messages go (a database, the browser, another server
 * instance) and a resumed run finds the approval without any memory of the first.
 */
const PREFIX = 'Toolgate approval ';
const PATTERN = /^Toolgate approval ([A-Za-z0-9_-]{1,128})(?=[:\s]|$)/;

export function approvalReason(approval: ApprovalRef, pre: ValidationResponse | undefined): string {
  const why = pre?.errors[0]?.message;
  return `${PREFIX}${approval.id}${why ? `: ${why}` : ''}`;
}

/** The Toolgate approval id in an approval request's reason, if the adapter wrote it. */
export function approvalIdInReason(reason: unknown): string | undefined {
  if (typeof reason !== 'string') return undefined;
  return PATTERN.exec(reason)?.[1];
}

/** The approval id of the last tool-approval-request for this tool call in the history. */
export function approvalIdInMessages(messages: readonly ModelMessage[] | undefined, toolCallId: string): string | undefined {
  let found: string | undefined;
  for (const message of messages ?? []) {
    if (message.role !== 'assistant' || typeof message.content === 'string') continue;
    for (const part of message.content) {
      if (part.type !== 'tool-approval-request' || part.toolCallId !== toolCallId) continue;
      found = approvalIdInReason(part.reason) ?? found;
    }
  }
  return found;
}
