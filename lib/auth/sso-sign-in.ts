import type { BetterAuthOptions } from 'better-auth';
import { createAuthMiddleware, isAPIError } from 'better-auth/api';
import { deleteSessionCookie } from 'better-auth/cookies';
import { genericOAuth } from 'better-auth/plugins';
import { hasPendingInvitation } from '../members/accept-invitation';
import { log } from '../log';
import type { Role } from '../tenants/roles';
import { completeSsoSignIn } from './complete-sso-sign-in';
import { discoveryUrl, SSO_PROVIDER_ID, type SsoConfig } from './sso-config';
import { SSO_REFUSALS, isEmailVerifiedByProvider, isSsoRefusal, roleFromGroups, ssoRefusal } from './sso-rules';

/** The longest display name taken from the identity provider (the invitation form allows 100). */
const MAX_NAME_CHARS = 100;

/**
 * The Better Auth options that turn on sign-in with the company's OpenID provider: Better Auth's
 * own generic OAuth plugin (discovery, PKCE, state, nonce and ID token checks are its), plus
 * Toolgate's gate on who may join and the step that turns invitations into memberships.
 */

type ValidateUserInfo = NonNullable<NonNullable<BetterAuthOptions['user']>['validateUserInfo']>;

/** The role the groups claim gave this request's sign-in, from the gate to the after hook. */
const mappedRoles = new WeakMap<object, Role | null>();

export function ssoAuthOptions(config: SsoConfig, options: { errorURL: string }) {
  const scopes = ssoScopes(config);
  const plugin = genericOAuth({
    config: [
      {
        providerId: config.providerId,
        name: config.name,
        clientId: config.clientId,
        clientSecret: config.clientSecret,
        discoveryUrl: discoveryUrl(config.issuer),
        // Without the provider's keys an ID token could not be checked; better no button than an
        // unverified identity.
        requireIdTokenVerification: true,
        pkce: true,
        scopes: scopes.scopes,
        // The user row says what the gate below relied on (Better Auth itself reads only email_verified).
        mapProfileToUser: (profile) => ({
          // The claim is a string; anything else is no email (email_not_found), not a crash in
          // Better Auth's user lookup (internal_server_error, logged as a database failure).
          email: typeof profile.email === 'string' ? profile.email : undefined,
          // Bounded: the name is shown to every admin on the Members page.
          name: typeof profile.name === 'string' && profile.name.trim() ? profile.name.trim().slice(0, MAX_NAME_CHARS) : undefined,
          emailVerified: isEmailVerifiedByProvider(profile),
        }),
      },
    ],
  });

  const validateUserInfo: ValidateUserInfo = async ({ user, source }, ctx) => {
    if (source.method !== 'oauth' || source.oauth?.providerId !== SSO_PROVIDER_ID) return;
    const profile = source.oauth.profile ?? {};
    const email = String(user.email ?? '').toLowerCase();
    const refusal = await ssoRefusal({
      action: source.action,
      email,
      emailVerified: isEmailVerifiedByProvider(profile),
      allowedDomains: config.allowedDomains,
      invited: () => hasPendingInvitation(email),
    });
    if (refusal) {
      log.warn('sso sign-in refused', { reason: refusal, action: source.action, email_domain: email.split('@')[1] ?? null });
      return { error: refusal, errorDescription: SSO_REFUSALS[refusal].title };
    }
    if (config.groupsClaim) mappedRoles.set(ctx.context, roleFromGroups(profile[config.groupsClaim], config.roleMapping));
  };

  // Run by auth.ts's own before hook (Better Auth takes one), with its checks.
  const before = async (ctx: { path: string; body?: unknown }): Promise<void> => {
    if (ctx.path === '/sign-in/social' && (ctx.body as { provider?: unknown } | undefined)?.provider === SSO_PROVIDER_ID)
      await scopes.settle();
  };

  // Runs after Better Auth answered the provider's callback. A session exists only when the
  // sign-in succeeded; the person's invitations become memberships before they reach a page.
  const after = createAuthMiddleware(async (ctx) => {
    if (ctx.path !== '/callback/:id' || ctx.params?.id !== SSO_PROVIDER_ID) return;
    const created = ctx.context.newSession;
    if (!created) {
      // Better Auth answered with a redirect to the error page; say why in the server's log too.
      const code = redirectErrorCode(ctx.context.returned);
      if (code && !isSsoRefusal(code)) log.warn('sso sign-in failed', { error: code });
      return;
    }
    const outcome = await completeSsoSignIn({
      userId: created.user.id,
      email: created.user.email,
      mappedRole: mappedRoles.get(ctx.context) ?? null,
    }).catch((error: unknown) => {
      log.error('sso sign-in: accepting invitations failed', { error: error instanceof Error ? error.message : String(error) });
      return 'failed' as const;
    });
    if (outcome === 'failed' || outcome.memberships === 0) {
      // Nobody without a tenant keeps a session: the one Better Auth just made is withdrawn.
      await ctx.context.internalAdapter.deleteSession(created.session.token);
      deleteSessionCookie(ctx);
      const code = outcome === 'failed' ? 'sso_failed' : 'sso_not_invited';
      throw ctx.redirect(`${options.errorURL}?error=${code}`);
    }
  });

  return { plugin, validateUserInfo, before, after };
}

function redirectErrorCode(returned: unknown): string | null {
  if (!isAPIError(returned)) return null;
  const location = new Headers(returned.headers ?? undefined).get('location');
  if (!location) return null;
  return new URL(location, 'http://localhost').searchParams.get('error');
}

/**
 * openid, email and profile, and, when groups are mapped, a scope named like the groups claim
 * if the provider's discovery document lists it (Okta's `groups`). Providers that put groups
 * in tokens without a scope (Entra ID, Keycloak's group mapper) would refuse an unknown scope,
 * so it is only asked for when offered. Decided at the first sign-in whose discovery read
 * succeeds, so a provider that is down when Toolgate starts does not lose the scope for good.
 */
function ssoScopes(config: SsoConfig) {
  const scopes = ['openid', 'email', 'profile'];
  let settled = !config.groupsClaim;
  return {
    /** The plugin reads this array on every sign-in, so adding to it later takes effect. */
    scopes,
    async settle(): Promise<void> {
      if (settled || !config.groupsClaim) return;
      try {
        const response = await fetch(discoveryUrl(config.issuer), {
          signal: AbortSignal.timeout(5000),
          headers: { accept: 'application/json' },
        });
        if (!response.ok) throw new Error(`HTTP ${response.status}`);
        const document = (await response.json()) as { scopes_supported?: unknown };
        settled = true;
        if (
          Array.isArray(document.scopes_supported) &&
          document.scopes_supported.includes(config.groupsClaim) &&
          !scopes.includes(config.groupsClaim)
        )
          scopes.push(config.groupsClaim);
      } catch (error) {
        log.warn('sso: could not read the provider discovery document for its scopes; trying again at the next sign-in', {
          issuer: config.issuer,
          error: error instanceof Error ? error.message : String(error),
        });
      }
    },
  };
}
