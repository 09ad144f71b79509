import { randomBytes } from 'node:crypto';
import { sha256Hex } from '../contracts/canonical-json';
import { publicBaseUrl } from '../env';

/** 32 random bytes: the link is the only credential an invitee has until they set a password. */
const TOKEN_BYTES = 32;
const TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

export function createInvitationToken(): { token: string; tokenHash: string } {
  const token = randomBytes(TOKEN_BYTES).toString('base64url');
  return { token, tokenHash: hashInvitationToken(token) };
}

/** Only this digest is stored, so a database copy cannot be turned into working links. */
export function hashInvitationToken(token: string): string {
  return sha256Hex(token);
}

/** Tokens Toolgate could have issued; anything else is unknown without a database lookup. */
export function isWellFormedInvitationToken(token: string): boolean {
  return TOKEN_PATTERN.test(token);
}

export function invitationUrl(token: string): string {
  return `${publicBaseUrl()}/invite/${token}`;
}
