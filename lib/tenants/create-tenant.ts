import { db } from '../db';

/** Tenant slugs: what URLs, the CLI and TOOLGATE_INIT_TENANT name a tenant by. */
export const TENANT_SLUG_PATTERN = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;

export async function createTenant(options: { slug: string; name?: string; storeRawArguments?: boolean; retentionDays?: number }) {
  return db().tenant.create({
    data: {
      slug: options.slug,
      name: options.name ?? options.slug,
      storeRawArguments: options.storeRawArguments ?? false,
      ...(options.retentionDays !== undefined ? { retentionDays: options.retentionDays } : {}),
    },
  });
}
