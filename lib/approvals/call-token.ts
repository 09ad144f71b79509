import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Approval and confirmation tokens: `<prefix>_<row id>_<signature>`. The signature is an HMAC
 * over the row id and the exact call it was issued for (tenant, tool, contract version,
 * canonical hash of the arguments, user), so a token cannot be forged, moved to another call or
 * another tenant. Single use and expiry live on the row.
 */
export interface CallBinding {
  tenantId: string;
  tool: string;
  contractVersion: string;
  argsHash: string;
  userId: string | null;
}

export type TokenKind = 'approval' | 'confirmation';
const PREFIX: Record<TokenKind, string> = { approval: 'tga', confirmation: 'tgc' };

function signature(secret: string, kind: TokenKind, id: string, binding: CallBinding): string {
  const material = [kind, id, binding.tenantId, binding.tool, binding.contractVersion, binding.argsHash, binding.userId ?? ''].join('\n');
  return createHmac('sha256', secret).update(material).digest('base64url');
}

export function issueCallToken(secret: string, kind: TokenKind, id: string, binding: CallBinding): string {
  return `${PREFIX[kind]}_${id}_${signature(secret, kind, id, binding)}`;
}

/** The row id a token names, or null when it is not shaped like a token of this kind. */
export function parseCallToken(kind: TokenKind, token: string): { id: string; signature: string } | null {
  const match = new RegExp(`^${PREFIX[kind]}_([A-Za-z0-9]{8,64})_([A-Za-z0-9_-]{43})$`).exec(token);
  return match?.[1] && match[2] ? { id: match[1], signature: match[2] } : null;
}

export function verifyCallToken(secret: string, kind: TokenKind, token: string, binding: CallBinding): boolean {
  const parsed = parseCallToken(kind, token);
  if (!parsed) return false;
  const expected = Buffer.from(signature(secret, kind, parsed.id, binding));
  const given = Buffer.from(parsed.signature);
  return expected.length === given.length && timingSafeEqual(expected, given);
}

export function sameBinding(a: CallBinding, b: CallBinding): boolean {
  return (
    a.tenantId === b.tenantId &&
    a.tool === b.tool &&
    a.contractVersion === b.contractVersion &&
    a.argsHash === b.argsHash &&
    (a.userId ?? null) === (b.userId ?? null)
  );
}
