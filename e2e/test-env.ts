/** Fixed first-start values: the e2e server bootstraps a fresh database with exactly these. */
export const E2E_TENANT = 'e2e';
export const E2E_ADMIN = { email: 'e2e-admin@example.com', password: 'e2e-admin-password' } as const;
export const E2E_INIT_API_KEY = 'tg_e2einit_0123456789abcdefghijklmnop';
