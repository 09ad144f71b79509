import type { FullConfig } from '@playwright/test';
import { startTestOidcProvider } from '../lib/testing/oidc-test-provider';
import { E2E_OIDC, E2E_OIDC_ACCOUNTS, e2eOidcPort } from './oidc';

/**
 * Starts a real OpenID provider (oidc-provider) on loopback for e2e/sso.spec.ts. Playwright
 * starts the web server before global setup, so the server's first look at the provider fails;
 * Better Auth tries discovery again at the first SSO sign-in.
 */
export default async function globalSetup(config: FullConfig): Promise<() => Promise<void>> {
  const baseURL = config.projects[0]?.use.baseURL;
  if (!baseURL) throw new Error('playwright.config.ts has no baseURL');
  const provider = await startTestOidcProvider({
    port: e2eOidcPort(),
    redirectUris: [`${baseURL}/api/auth/callback/sso`],
    accounts: E2E_OIDC_ACCOUNTS,
    clientId: E2E_OIDC.clientId,
    clientSecret: E2E_OIDC.clientSecret,
  });
  return () => provider.close();
}
