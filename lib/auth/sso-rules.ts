import { ROLES, type Role } from '../tenants/roles';

/**
 * Who may sign in with SSO, and which role their groups give them. Pure functions: the Better
 * Auth wiring (sso-sign-in.ts) feeds them the identity provider's claims.
 */

/** Why an SSO sign-in was refused; the sign-in page reads it from `?error=`. */
export const SSO_REFUSALS = {
  sso_email_unverified: {
    title: 'Your identity provider did not confirm this email address',
    message:
      'Toolgate lets a person in with single sign-on only when the identity provider says their email address is verified (the email_verified claim). Ask your identity provider administrator to verify the address, or sign in with your password.',
  },
  sso_domain_not_allowed: {
    title: 'This email domain cannot sign in with single sign-on',
    message:
      'This Toolgate instance accepts single sign-on only from certain email domains. Ask an administrator of your Toolgate tenant which address to use.',
  },
  sso_not_invited: {
    title: 'Your email address has no invitation',
    message:
      'Nobody joins a Toolgate tenant by single sign-on alone. Ask an administrator of your Toolgate tenant to invite this exact email address, then sign in with single sign-on again.',
  },
} as const;

export type SsoRefusal = keyof typeof SSO_REFUSALS;

export function isSsoRefusal(code: string): code is SsoRefusal {
  return Object.hasOwn(SSO_REFUSALS, code);
}

/** Exact domain match, case-insensitive: `example.com` does not admit `eu.example.com`. */
export function isEmailDomainAllowed(email: string, allowedDomains: readonly string[]): boolean {
  if (allowedDomains.length === 0) return true;
  const at = email.lastIndexOf('@');
  if (at < 1) return false;
  return allowedDomains.includes(email.slice(at + 1).toLowerCase());
}

function isTrueClaim(value: unknown): boolean {
  // OIDC says these are booleans; some providers send the string "true".
  return value === true || value === 'true';
}

/**
 * Whether the provider asserts that the person controls the address: OIDC's `email_verified`,
 * or, from Microsoft Entra ID (which does not send `email_verified`), its optional claim
 * `xms_edov` ("email domain owner verified").
 */
export function isEmailVerifiedByProvider(profile: Record<string, unknown>): boolean {
  return isTrueClaim(profile.email_verified) || isTrueClaim(profile.xms_edov);
}

/**
 * What Better Auth is about to do with the identity, and whether Toolgate allows it:
 * - `create-user`: a person Toolgate does not know. Needs a verified email in an allowed domain
 *   and a pending invitation for that exact address.
 * - `link-account`: a Toolgate user with the same email signs in with SSO for the first time.
 *   Needs a verified email in an allowed domain (the invitation was accepted long ago).
 * - `sign-in`: a person who signed in with SSO before. Their address may have changed at the
 *   provider, so the domain is checked again.
 */
export async function ssoRefusal(options: {
  action: 'create-user' | 'link-account' | 'sign-in';
  email: string;
  emailVerified: boolean;
  allowedDomains: readonly string[];
  /** Only consulted for `create-user`. */
  invited: () => Promise<boolean>;
}): Promise<SsoRefusal | null> {
  if (!isEmailDomainAllowed(options.email, options.allowedDomains)) return 'sso_domain_not_allowed';
  if (options.action === 'sign-in') return null;
  if (!options.emailVerified) return 'sso_email_unverified';
  if (options.action === 'link-account') return null;
  return (await options.invited()) ? null : 'sso_not_invited';
}

/**
 * The highest role (viewer < author < approver < admin) any of the person's groups maps to, or
 * null when the claim is missing or no group is mapped. The claim is a list of strings (Okta,
 * Keycloak, Entra ID) or, from some providers, one string holding a single group.
 */
export function roleFromGroups(claim: unknown, mapping: ReadonlyMap<string, Role>): Role | null {
  const groups = Array.isArray(claim) ? claim : typeof claim === 'string' ? [claim] : [];
  let best = -1;
  for (const group of groups) {
    if (typeof group !== 'string') continue;
    const role = mapping.get(group);
    if (role) best = Math.max(best, ROLES.indexOf(role));
  }
  return best < 0 ? null : ROLES[best]!;
}
