import { betterAuth } from 'better-auth';
import { prismaAdapter } from 'better-auth/adapters/prisma';
import { db, dbProvider } from '../db';
import { env } from '../env';
import { getInstanceSecret } from './instance-secret';

export function publicBaseUrl(): string {
  const e = env();
  return e.TOOLGATE_PUBLIC_URL ?? `http://localhost:${e.PORT}`;
}

function createAuth(secret: string) {
  const e = env();
  const base = publicBaseUrl();
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
    // Session cookies only over TLS when the instance is served over https (docs/security.md).
    advanced: { useSecureCookies: base.startsWith('https://') },
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
}
