import type { TestOidcAccount } from '../lib/testing/oidc-test-provider';

/**
 * The OpenID provider the browser tests sign in against (started by e2e/global-setup.ts, named
 * to the server in playwright.config.ts). Its port follows E2E_PORT, so runs side by side with
 * different E2E_PORTs do not collide (3202 -> 3292).
 */
export function e2eOidcPort(): number {
  return Number(process.env.E2E_OIDC_PORT ?? Number(process.env.E2E_PORT ?? 3100) + 90);
}

export const E2E_OIDC = {
  clientId: 'toolgate-e2e',
  clientSecret: 'e2e-oidc-client-secret-0123456789',
  groupsClaim: 'groups',
  roleMapping: 'toolgate-approvers=approver',
} as const;

/** Login names typed at the provider's development login page, and who they are. */
export const E2E_OIDC_ACCOUNTS = {
  'sso-author': { email: 'sso-author@example.com', emailVerified: true, name: 'Sso Author' },
  'sso-stranger': { email: 'sso-stranger@example.com', emailVerified: true, name: 'Sso Stranger' },
  'sso-grouped': { email: 'sso-grouped@example.com', emailVerified: true, name: 'Sso Grouped', groups: ['everyone', 'toolgate-approvers'] },
} satisfies Record<string, TestOidcAccount>;
