import { randomBytes } from 'node:crypto';
import { db } from '../db';
import { env } from '../env';

const SETTING_KEY = 'instance_secret';
let cached: string | undefined;

/**
 * The secret that signs approval/confirmation tokens and dashboard sessions. TOOLGATE_SECRET
 * wins; otherwise one is generated on first start and kept in the database, so that several
 * instances over one database agree without extra configuration.
 */
export async function getInstanceSecret(): Promise<string> {
  if (cached) return cached;
  const fromEnv = env().TOOLGATE_SECRET;
  if (fromEnv) return (cached = fromEnv);
  const existing = await db().setting.findUnique({ where: { key: SETTING_KEY } });
  if (existing) return (cached = existing.value);
  const value = randomBytes(32).toString('base64url');
  try {
    await db().setting.create({ data: { key: SETTING_KEY, value } });
    return (cached = value);
  } catch {
    // Another instance created it first; use theirs.
    const row = await db().setting.findUniqueOrThrow({ where: { key: SETTING_KEY } });
    return (cached = row.value);
  }
}

export function resetInstanceSecretForTests(): void {
  cached = undefined;
}
