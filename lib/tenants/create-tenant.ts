import { db, isUniqueViolation } from '../db';

export { TENANT_SLUG_PATTERN } from './tenant-slug';

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

/**
 * The tenant, or null when its slug is taken, also when another process took it a moment ago:
 * several instances started together on one empty database all bootstrap, and only one of them
 * may create the first tenant; the others go on as if it had existed (one of them used to stop
 * start-up with an unhandled unique-constraint error).
 */
export async function createTenantUnlessTaken(options: Parameters<typeof createTenant>[0]) {
  try {
    return await createTenant(options);
  } catch (error) {
    if (isUniqueViolation(error)) return null;
    throw error;
  }
}
