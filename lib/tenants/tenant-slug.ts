/** Tenant slugs: what URLs, the CLI and TOOLGATE_INIT_TENANT name a tenant by. */
export const TENANT_SLUG_PATTERN = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;
