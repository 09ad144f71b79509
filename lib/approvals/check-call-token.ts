import { db } from '../db';
import { makeIssue, type ValidationIssue } from '../validation/error-codes';
import { parseCallToken, sameBinding, verifyCallToken, type CallBinding, type TokenKind } from './call-token';
import { nowMs } from '../clock/clock';
import { grantOf, type ApprovalGrant } from './approval-grant';

/** `grant`: for an approval, what it was given under (absent where a replay only knows it was approved). */
export type TokenCheck = { ok: true; id: string; grant?: ApprovalGrant } | { ok: false; issue: ValidationIssue };

/**
 * Checks a presented approval or confirmation token against the call being validated. It does
 * not consume the token: that happens in the evidence transaction, only when the call is
 * allowed (lib/approvals/consume-call-token.ts).
 */
export async function checkCallToken(options: {
  kind: TokenKind;
  token: string;
  binding: CallBinding;
  secret: string;
  /**
   * The API key presenting it. An approval's token is the asking key's alone: another key of the
   * tenant that learned it (a log, a shared queue) cannot run the approved call with it.
   */
  apiKeyId?: string;
}): Promise<TokenCheck> {
  const { kind, token, binding, secret } = options;
  const invalidCode = kind === 'approval' ? 'AXAG_APPROVAL_INVALID' : 'AXAG_CONFIRMATION_INVALID';
  const field = kind === 'approval' ? 'approval_token' : 'confirmation_token';
  const invalid = (message: string, reason: string): TokenCheck => ({
    ok: false,
    issue: makeIssue(invalidCode, { intent: binding.tool, message, path: `$.${field}`, reason }),
  });

  const parsed = parseCallToken(kind, token);
  if (!parsed) return invalid(`The ${field} is not a valid ${kind} token.`, 'malformed');
  const row =
    kind === 'approval'
      ? await db().approval.findFirst({ where: { id: parsed.id, tenantId: binding.tenantId } })
      : await db().confirmation.findFirst({ where: { id: parsed.id, tenantId: binding.tenantId } });
  if (!row) return invalid(`The ${field} is not known.`, 'unknown');
  const issued: CallBinding = {
    tenantId: row.tenantId,
    tool: row.tool,
    contractVersion: row.contractVersion,
    argsHash: row.argsHash,
    userId: row.userId,
  };
  if (!verifyCallToken(secret, kind, token, issued)) return invalid(`The ${field} signature does not verify.`, 'bad_signature');
  if (!sameBinding(issued, binding)) {
    return invalid(
      `The ${field} was issued for a different call (tool, version, arguments or user differ). Tokens are bound to the exact call.`,
      'binding_mismatch',
    );
  }
  if (kind === 'approval' && 'status' in row) {
    if (row.status === 'denied') {
      return {
        ok: false,
        issue: makeIssue('AXAG_APPROVAL_DENIED', {
          intent: binding.tool,
          message: `The approval was denied${row.comment ? `: ${row.comment}` : '.'}`,
          path: `$.${field}`,
          comment: row.comment,
        }),
      };
    }
    if (row.status !== 'approved') return invalid(`The approval is ${row.status}, not approved.`, row.status);
    if (row.apiKeyId !== null && options.apiKeyId !== undefined && row.apiKeyId !== options.apiKeyId)
      return invalid(
        'The approval_token belongs to the call of another API key; only the key that asked for the approval can use it.',
        'other_key',
      );
    if (row.tokenUsedAt) return invalid('The approval token was already used; each approval allows one call.', 'used');
  }
  if ('usedAt' in row && row.usedAt) return invalid('The confirmation token was already used; each confirmation allows one call.', 'used');
  if (row.expiresAt.getTime() <= nowMs()) return invalid(`The ${field} has expired.`, 'expired');
  return 'approverRoles' in row ? { ok: true, id: row.id, grant: grantOf(row) } : { ok: true, id: row.id };
}
