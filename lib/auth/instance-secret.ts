import { createHmac, randomBytes } from 'node:crypto';
import { db } from '../db';
import { env } from '../env';

const SETTING_KEY = 'instance_secret';
const FINGERPRINT_KEY = 'instance_secret_fingerprint';
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

/**
 * Records which secret this database is served with (a one-way fingerprint) and says, once, when
 * it is not the one it was last served with: setting TOOLGATE_SECRET on a database that ran on a
 * generated secret, changing it or removing it quietly undoes everything the old secret signed or
 * sealed, and an operator who did it by accident (a second instance with another value) learns
 * only from the symptoms. Returns the warning for start-up to print, or null.
 */
export async function noteInstanceSecret(): Promise<string | null> {
  const secret = await getInstanceSecret();
  const fingerprint = createHmac('sha256', secret).update('toolgate-instance-secret-fingerprint\nv1').digest('base64url').slice(0, 22);
  const [recorded, generated] = await Promise.all([
    db().setting.findUnique({ where: { key: FINGERPRINT_KEY } }),
    db().setting.findUnique({ where: { key: SETTING_KEY } }),
  ]);
  if (recorded?.value === fingerprint) return null;
  try {
    await db().setting.upsert({
      where: { key: FINGERPRINT_KEY },
      create: { key: FINGERPRINT_KEY, value: fingerprint },
      update: { value: fingerprint },
    });
  } catch {
    // Another instance starting at the same moment recorded its own: it says so itself if it differs.
  }
  // No fingerprint yet (a new database, or one from before fingerprints): the generated secret,
  // when there is one, is what it ran on.
  const changed = recorded ? true : generated !== null && generated.value !== secret;
  if (!changed) return null;
  return (
    'the instance secret is not the one this database was last served with (TOOLGATE_SECRET set, changed or removed): ' +
    'dashboard sessions end, approval and confirmation tokens already handed out no longer hold, webhook signing secrets change, ' +
    "MCP servers' stored auth headers must be set again, and the next evidence verification reads every record (earlier checkpoints no longer count)"
  );
}

export function resetInstanceSecretForTests(): void {
  cached = undefined;
}
