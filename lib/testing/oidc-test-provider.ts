import { generateKeyPairSync, randomBytes } from 'node:crypto';
import type { Server } from 'node:http';
import Provider, { type ClientMetadata } from 'oidc-provider';

/**
 * A real, certified OpenID provider (the `oidc-provider` package) for tests, on loopback only.
 * Its built-in development login page signs in any login name: the name picks one of the
 * static accounts below (an unknown name is an account with no claims, which the relying party
 * cannot use). Nothing here reaches beyond 127.0.0.1.
 */
export interface TestOidcAccount {
  /** A number or a list: a provider that breaks the spec (the claim is a string). */
  email: string | number | readonly string[];
  /** Left out: the provider sends no `email_verified` claim (as Entra ID does not). */
  emailVerified?: boolean;
  /** Entra ID's "email domain owner verified" optional claim. */
  xmsEdov?: boolean;
  name?: string;
  groups?: string[];
}

export interface TestOidcProvider {
  issuer: string;
  clientId: string;
  clientSecret: string;
  close(): Promise<void>;
}

export async function startTestOidcProvider(options: {
  port: number;
  /** Where the relying party receives the code: `<baseURL>/api/auth/callback/sso`. */
  redirectUris: string[];
  /** Login name (typed at the provider's login page) to account. */
  accounts: Record<string, TestOidcAccount>;
  clientId?: string;
  clientSecret?: string;
}): Promise<TestOidcProvider> {
  const issuer = `http://127.0.0.1:${options.port}`;
  const clientId = options.clientId ?? 'toolgate-test';
  const clientSecret = options.clientSecret ?? randomBytes(24).toString('base64url');
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const client: ClientMetadata = {
    client_id: clientId,
    client_secret: clientSecret,
    redirect_uris: options.redirectUris,
    grant_types: ['authorization_code'],
    response_types: ['code'],
    token_endpoint_auth_method: 'client_secret_post',
  };
  const provider = new Provider(issuer, {
    clients: [client],
    jwks: { keys: [{ ...privateKey.export({ format: 'jwk' }), kid: 'test', alg: 'RS256', use: 'sig' }] },
    cookies: { keys: [randomBytes(32).toString('hex')] },
    // `groups` as a scope of its own, as Okta has it; the relying party asks for it because the
    // discovery document lists it.
    scopes: ['openid', 'email', 'profile', 'groups'],
    claims: { openid: ['sub'], email: ['email', 'email_verified', 'xms_edov'], profile: ['name'], groups: ['groups'] },
    features: { devInteractions: { enabled: true } },
    pkce: { required: () => true },
    // Set, so the provider does not print a notice per artefact kind on its first use.
    ttl: { AccessToken: 600, AuthorizationCode: 60, IdToken: 600, Interaction: 600, Session: 600, Grant: 600 },
    async findAccount(_ctx, sub) {
      const account = Object.hasOwn(options.accounts, sub) ? options.accounts[sub] : undefined;
      return {
        accountId: sub,
        async claims() {
          if (!account) return { sub };
          return {
            sub,
            email: account.email,
            name: account.name ?? sub,
            ...(account.emailVerified !== undefined ? { email_verified: account.emailVerified } : {}),
            ...(account.xmsEdov !== undefined ? { xms_edov: account.xmsEdov } : {}),
            ...(account.groups ? { groups: account.groups } : {}),
          };
        },
      };
    },
  });
  provider.on('server_error', (_ctx, error) => console.error('[test OpenID provider]', error));
  const server: Server = await new Promise((resolve, reject) => {
    const listening = provider.listen(options.port, '127.0.0.1', () => resolve(listening));
    listening.once('error', reject);
  });
  return {
    issuer,
    clientId,
    clientSecret,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
