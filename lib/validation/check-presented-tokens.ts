import type { CallBinding } from '../approvals/call-token';
import { checkCallToken, type TokenCheck } from '../approvals/check-call-token';
import { getInstanceSecret } from '../auth/instance-secret';
import type { ToolContract } from '../contracts/contract-schema';
import { makeIssue, type ValidationIssue } from './error-codes';

/** A token that passed its check, to be consumed when the call is allowed. */
export type PresentedToken = { kind: 'approval' | 'confirmation'; id: string };

export interface PresentedTokens {
  /** The confirmation token when it passed; the approval token joins once the decision uses it. */
  tokens: PresentedToken[];
  confirmationIssues: ValidationIssue[];
  approvalCheck: TokenCheck | null;
}

/** The confirmation and approval tokens of a validate/pre request, each checked against this exact call. */
export async function checkPresentedTokens(options: {
  tool: string;
  confirmationToken: string | undefined;
  approvalToken: string | undefined;
  annotations: ToolContract['annotations'];
  binding: CallBinding;
  /** The API key asking: an approval token is good only for the key that asked for the approval. */
  apiKeyId: string;
}): Promise<PresentedTokens> {
  const { tool, annotations, binding } = options;
  const secret = await getInstanceSecret();
  const tokens: PresentedToken[] = [];

  const confirmationIssues: ValidationIssue[] = [];
  if (annotations.confirmation_required) {
    if (!options.confirmationToken) {
      confirmationIssues.push(
        makeIssue('AXAG_CONFIRMATION_MISSING', {
          intent: tool,
          message: `${tool} needs the user's explicit confirmation of this exact call.`,
          path: '$.confirmation_token',
        }),
      );
    } else {
      const check = await checkCallToken({ kind: 'confirmation', token: options.confirmationToken, binding, secret });
      if (check.ok) tokens.push({ kind: 'confirmation', id: check.id });
      else confirmationIssues.push(check.issue);
    }
  }
  // Checked whenever one is presented: whether the call needs it depends on the contract and on
  // every policy, enforced and shadow alike.
  const approvalCheck = options.approvalToken
    ? await checkCallToken({ kind: 'approval', token: options.approvalToken, binding, secret, apiKeyId: options.apiKeyId })
    : null;
  return { tokens, confirmationIssues, approvalCheck };
}
