import { db } from '../db';

export async function createTenant(options: { slug: string; name?: string; storeRawArguments?: boolean }) {
  return db().tenant.create({
    data: { slug: options.slug, name: options.name ?? options.slug, storeRawArguments: options.storeRawArguments ?? false },
  });
}
