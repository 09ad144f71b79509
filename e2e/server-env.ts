import { E2E_ADMIN, E2E_INIT_API_KEY, E2E_TENANT } from './test-env';
import { E2E_OIDC, e2eOidcPort } from './oidc';

/**
 * The environment the e2e server runs with (playwright.config.ts), and a second instance over
 * the same database and public URL (e2e/security.spec.ts) with only its port changed.
 */
export function e2eServerEnv(port: number, publicUrl: string): Record<string, string> {
  return {
    NEXT_TELEMETRY_DISABLED: '1',
    DATABASE_URL: `file:${process.env.TOOLGATE_E2E_DATABASE}`,
    PORT: String(port),
    HOSTNAME: '127.0.0.1',
    TOOLGATE_PUBLIC_URL: publicUrl,
    TOOLGATE_INIT_TENANT: E2E_TENANT,
    TOOLGATE_INIT_ADMIN_EMAIL: E2E_ADMIN.email,
    TOOLGATE_INIT_ADMIN_PASSWORD: E2E_ADMIN.password,
    TOOLGATE_INIT_API_KEY: E2E_INIT_API_KEY,
    // SSO is on for every spec: password sign-in must keep working beside it.
    TOOLGATE_OIDC_ISSUER: `http://127.0.0.1:${e2eOidcPort()}`,
    TOOLGATE_OIDC_CLIENT_ID: E2E_OIDC.clientId,
    TOOLGATE_OIDC_CLIENT_SECRET: E2E_OIDC.clientSecret,
    TOOLGATE_OIDC_ALLOWED_DOMAINS: 'example.com',
    TOOLGATE_OIDC_GROUPS_CLAIM: E2E_OIDC.groupsClaim,
    TOOLGATE_OIDC_ROLE_MAPPING: E2E_OIDC.roleMapping,
    // e2e/mcp.spec.ts registers an upstream on 127.0.0.1, which production refuses (SSRF).
    TOOLGATE_MCP_ALLOW_PRIVATE: '1',
  };
}
