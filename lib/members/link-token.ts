import { randomBytes } from 'node:crypto';
import { sha256Hex } from '../contracts/canonical-json';
import { publicBaseUrl } from '../env';

/**
 * The tokens of single-use links (invitations, password resets): 32 random bytes, the only
 * credential their holder has until a password is set.
 */
const TOKEN_BYTES = 32;
const TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

export function createLinkToken(): { token: string; tokenHash: string } {
  const token = randomBytes(TOKEN_BYTES).toString('base64url');
  return { token, tokenHash: hashLinkToken(token) };
}

/** Only this digest is stored, so a database copy cannot be turned into working links. */
export function hashLinkToken(token: string): string {
  return sha256Hex(token);
}

/** Tokens Toolgate could have issued; anything else is unknown without a database lookup. */
export function isWellFormedLinkToken(token: string): boolean {
  return TOKEN_PATTERN.test(token);
}

export function invitationUrl(token: string): string {
  return `${publicBaseUrl()}/invite/${token}`;
}

export function passwordResetUrl(token: string): string {
  return `${publicBaseUrl()}/reset-password/${token}`;
}
