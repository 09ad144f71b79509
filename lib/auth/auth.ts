import { betterAuth } from 'better-auth';
import { APIError, createAuthMiddleware, getSessionFromCtx } from 'better-auth/api';
import { prismaAdapter } from 'better-auth/adapters/prisma';
import { db, dbProvider } from '../db';
import { env, publicBaseUrl } from '../env';
import { getInstanceSecret } from './instance-secret';
import { parseSsoConfig, SSO_PROVIDER_ID, type SsoConfig } from './sso-config';
import { ssoAuthOptions } from './sso-sign-in';
import { CLIENT_ADDRESS_HEADER } from '../http/client-address';
import { passwordProblem } from './password-policy';

let ssoCache: { config: SsoConfig | null } | undefined;

/** Sign-in with the company's OpenID provider, or null when it is not configured. */
export function getSsoConfig(): SsoConfig | null {
  ssoCache ??= { config: parseSsoConfig(env()) };
  return ssoCache.config;
}

/**
 * Better Auth's change-password checks only the length; the new password also meets the policy
 * an invitation's does (lib/auth/password-policy.ts), before the current one is even checked.
 */
async function refuseWeakNewPassword(ctx: Parameters<typeof getSessionFromCtx>[0]): Promise<void> {
  const newPassword = (ctx.body as { newPassword?: unknown } | undefined)?.newPassword;
  if (typeof newPassword !== 'string') return;
  // Signed out: Better Auth's own 401, not a verdict on the password.
  const session = await getSessionFromCtx(ctx).catch(() => null);
  if (!session) return;
  const weak = await passwordProblem(newPassword, { email: session.user.email });
  if (weak) throw new APIError('BAD_REQUEST', { message: `The password ${weak}.`, code: 'PASSWORD_NOT_ALLOWED' });
}

function createAuth(secret: string) {
  const e = env();
  const base = publicBaseUrl();
  const ssoConfig = getSsoConfig();
  // Every failed OAuth callback (refused, provider down, state mismatch) lands on the sign-in
  // page, which explains the `?error=` code, instead of Better Auth's bare error page.
  const errorURL = `${base}/sign-in`;
  const sso = ssoConfig ? ssoAuthOptions(ssoConfig, { errorURL }) : null;
  return betterAuth({
    appName: 'Toolgate',
    baseURL: base,
    secret,
    database: prismaAdapter(db(), { provider: dbProvider() }),
    // People are added by an admin or by the first-start bootstrap, never by self sign-up.
    emailAndPassword: { enabled: true, disableSignUp: true, minPasswordLength: 8 },
    session: { expiresIn: 60 * 60 * 12, updateAge: 60 * 60 },
    trustedOrigins: [base, `http://localhost:${e.PORT}`, `http://127.0.0.1:${e.PORT}`],
    telemetry: { enabled: false },
    // Counted in the database, so a caller's sign-ins count the same on every instance (in each
    // instance's memory, N instances allowed N times the guesses). Rows are pruned by a job
    // (lib/auth/prune-rate-limits.ts). On in production, as Better Auth defaults.
    rateLimit: { storage: 'database' },
    advanced: {
      // Session cookies only over TLS when the instance is served over https (docs/security.md).
      useSecureCookies: base.startsWith('https://'),
      // The caller's address as the server determined it, for the sign-in rate limit and a
      // session's address: never X-Forwarded-For as the caller wrote it (lib/http/client-address.ts).
      ipAddress: { ipAddressHeaders: [CLIENT_ADDRESS_HEADER] },
      // Better Auth skips its origin and callbackURL checks when NODE_ENV is test: on always, so
      // the integration tests check sign-in as production runs it.
      disableOriginCheck: false,
    },
    // An unexpected failure (a write the database refused: a full disk, a database gone) is
    // thrown to Toolgate's handler, which answers it as the API does (503 with Retry-After for
    // the database, the error envelope otherwise, lib/api/handlers/better-auth.ts) where Better
    // Auth answered a bodiless 500. Its own errors (a wrong password) are still its answers.
    onAPIError: { errorURL, throw: true },
    plugins: sso ? [sso.plugin] : [],
    // Users are created here only by an SSO sign-in, and only for an invited, verified address
    // (sso-sign-in.ts); everyone else is added by lib/members.
    user: { validateUserInfo: sso?.validateUserInfo },
    // A Toolgate user whose address the provider asserts as verified gets their SSO account
    // linked on first SSO sign-in (the gate above refuses an unverified or disallowed address).
    // The provider's access and refresh tokens are kept (Better Auth stores them) but Toolgate
    // never calls the provider with them; encrypted with the instance secret, a database copy
    // does not hand them out, and the endpoints that would return them are not served
    // (lib/auth/auth-routes.ts).
    account: { accountLinking: { enabled: true, trustedProviders: sso ? [SSO_PROVIDER_ID] : [] }, encryptOAuthTokens: true },
    hooks: {
      before: createAuthMiddleware(async (ctx) => {
        if (ctx.path === '/change-password') await refuseWeakNewPassword(ctx);
        await sso?.before(ctx);
      }),
      after: sso?.after,
    },
  });
}

export type Auth = ReturnType<typeof createAuth>;

const globalForAuth = globalThis as unknown as { toolgateAuth?: Promise<Auth> };

/** Better Auth needs the instance secret, which may live in the database, hence async. */
export function getAuth(): Promise<Auth> {
  globalForAuth.toolgateAuth ??= getInstanceSecret().then(createAuth);
  return globalForAuth.toolgateAuth;
}

export function resetAuthForTests(): void {
  globalForAuth.toolgateAuth = undefined;
  ssoCache = undefined;
}
