import { ROLES, isRole, type Role } from '../tenants/roles';

/**
 * Sign-in with the company's OpenID Connect provider, read from the environment. Pure: no
 * database, no Next, no Better Auth, so the parsing and the who-may-join rules are unit-tested
 * and the client bundle can import the provider id.
 */

/** Better Auth's provider id: it is the last path segment of the redirect URI the IdP knows. */
export const SSO_PROVIDER_ID = 'sso';

/** The path of the redirect URI to register at the identity provider. */
export const SSO_CALLBACK_PATH = `/api/auth/callback/${SSO_PROVIDER_ID}`;

export interface SsoConfig {
  providerId: typeof SSO_PROVIDER_ID;
  name: string;
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** Lower-case e-mail domains allowed to sign in; empty means any domain. */
  allowedDomains: readonly string[];
  /** The claim holding the person's groups, or null when groups are not mapped. */
  groupsClaim: string | null;
  /** Group name (exact, case-sensitive as the IdP sends it) to role. */
  roleMapping: ReadonlyMap<string, Role>;
}

/** The subset of lib/env.ts's settings this module reads (so tests need not build a whole Env). */
export interface SsoEnv {
  TOOLGATE_OIDC_ISSUER?: string;
  TOOLGATE_OIDC_CLIENT_ID?: string;
  TOOLGATE_OIDC_CLIENT_SECRET?: string;
  TOOLGATE_OIDC_ALLOWED_DOMAINS?: string;
  TOOLGATE_OIDC_NAME?: string;
  TOOLGATE_OIDC_GROUPS_CLAIM?: string;
  TOOLGATE_OIDC_ROLE_MAPPING?: string;
}

/** A setting that cannot work; start-up stops with this message. */
export class SsoConfigError extends Error {
  constructor(message: string) {
    super(`Invalid SSO configuration: ${message}`);
    this.name = 'SsoConfigError';
  }
}

const DOMAIN = /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/;
const MAX_MAPPING_ENTRIES = 200;

/** The SSO settings, or null when SSO is off (none of issuer, client id, client secret set). */
export function parseSsoConfig(vars: SsoEnv): SsoConfig | null {
  const required = {
    TOOLGATE_OIDC_ISSUER: vars.TOOLGATE_OIDC_ISSUER?.trim(),
    TOOLGATE_OIDC_CLIENT_ID: vars.TOOLGATE_OIDC_CLIENT_ID?.trim(),
    TOOLGATE_OIDC_CLIENT_SECRET: vars.TOOLGATE_OIDC_CLIENT_SECRET,
  };
  const missing = Object.entries(required)
    .filter(([, value]) => !value)
    .map(([key]) => key);
  // Half a configuration is a typo, not a wish to have SSO off: say so at start-up rather than
  // silently hide the button.
  if (missing.length === 3) {
    if (vars.TOOLGATE_OIDC_ALLOWED_DOMAINS?.trim() || vars.TOOLGATE_OIDC_GROUPS_CLAIM || vars.TOOLGATE_OIDC_ROLE_MAPPING?.trim()) {
      throw new SsoConfigError(
        'TOOLGATE_OIDC_ALLOWED_DOMAINS, _GROUPS_CLAIM or _ROLE_MAPPING is set, but SSO is off: also set TOOLGATE_OIDC_ISSUER, TOOLGATE_OIDC_CLIENT_ID and TOOLGATE_OIDC_CLIENT_SECRET.',
      );
    }
    return null;
  }
  if (missing.length > 0) {
    throw new SsoConfigError(
      `TOOLGATE_OIDC_ISSUER, TOOLGATE_OIDC_CLIENT_ID and TOOLGATE_OIDC_CLIENT_SECRET are set together; missing ${missing.join(', ')}.`,
    );
  }
  const issuer = parseIssuer(required.TOOLGATE_OIDC_ISSUER!);
  const groupsClaim = vars.TOOLGATE_OIDC_GROUPS_CLAIM?.trim() || null;
  const mappingText = vars.TOOLGATE_OIDC_ROLE_MAPPING?.trim() ?? '';
  if (groupsClaim && !mappingText)
    throw new SsoConfigError('TOOLGATE_OIDC_GROUPS_CLAIM is set without TOOLGATE_OIDC_ROLE_MAPPING ("group=role,group=role").');
  if (!groupsClaim && mappingText)
    throw new SsoConfigError(
      'TOOLGATE_OIDC_ROLE_MAPPING is set without TOOLGATE_OIDC_GROUPS_CLAIM (the claim that carries the groups, e.g. "groups").',
    );
  return {
    providerId: SSO_PROVIDER_ID,
    name: vars.TOOLGATE_OIDC_NAME?.trim() || 'SSO',
    issuer,
    clientId: required.TOOLGATE_OIDC_CLIENT_ID!,
    clientSecret: required.TOOLGATE_OIDC_CLIENT_SECRET!,
    allowedDomains: parseAllowedDomains(vars.TOOLGATE_OIDC_ALLOWED_DOMAINS ?? ''),
    groupsClaim,
    roleMapping: parseRoleMapping(mappingText),
  };
}

function parseIssuer(text: string): string {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new SsoConfigError(`TOOLGATE_OIDC_ISSUER is not a URL: ${JSON.stringify(text)}.`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new SsoConfigError('TOOLGATE_OIDC_ISSUER must be an http(s) URL.');
  if (url.search || url.hash)
    throw new SsoConfigError('TOOLGATE_OIDC_ISSUER must not have a query or fragment (use the issuer, not the discovery URL).');
  // Kept as written: Better Auth compares the discovery document's issuer with the ID token's
  // `iss`, and a URL parser would add a trailing slash the provider may not use.
  return text;
}

/** Where OIDC discovery lives for an issuer (OpenID Connect Discovery 1.0, section 4). */
export function discoveryUrl(issuer: string): string {
  return `${issuer.replace(/\/+$/, '')}/.well-known/openid-configuration`;
}

export function parseAllowedDomains(text: string): string[] {
  const domains = new Set<string>();
  for (const raw of text.split(',')) {
    const domain = raw.trim().toLowerCase().replace(/^@/, '');
    if (!domain) continue;
    if (!DOMAIN.test(domain))
      throw new SsoConfigError(
        `TOOLGATE_OIDC_ALLOWED_DOMAINS: ${JSON.stringify(raw.trim())} is not a domain name (write example.com, without a scheme or wildcard).`,
      );
    domains.add(domain);
  }
  return [...domains];
}

/**
 * "group=role,group=role". A group name may itself contain "=" (the last one separates the
 * role); it cannot contain a comma. The same group twice must name the same role.
 */
export function parseRoleMapping(text: string): Map<string, Role> {
  const mapping = new Map<string, Role>();
  const entries = text.split(',').filter((entry) => entry.trim() !== '');
  if (entries.length > MAX_MAPPING_ENTRIES)
    throw new SsoConfigError(`TOOLGATE_OIDC_ROLE_MAPPING has ${entries.length} entries; at most ${MAX_MAPPING_ENTRIES}.`);
  for (const entry of entries) {
    const at = entry.lastIndexOf('=');
    const group = at > 0 ? entry.slice(0, at).trim() : '';
    const role = at >= 0 ? entry.slice(at + 1).trim() : '';
    if (!group || !role) throw new SsoConfigError(`TOOLGATE_OIDC_ROLE_MAPPING: ${JSON.stringify(entry.trim())} is not "group=role".`);
    if (!isRole(role))
      throw new SsoConfigError(
        `TOOLGATE_OIDC_ROLE_MAPPING: ${JSON.stringify(role)} (for group ${JSON.stringify(group)}) is not a role; roles are ${ROLES.join(', ')}.`,
      );
    const previous = mapping.get(group);
    if (previous && previous !== role)
      throw new SsoConfigError(`TOOLGATE_OIDC_ROLE_MAPPING maps group ${JSON.stringify(group)} to both ${previous} and ${role}.`);
    mapping.set(group, role);
  }
  return mapping;
}
