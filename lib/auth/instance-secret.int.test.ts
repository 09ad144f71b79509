import { afterEach, describe, expect, it } from 'vitest';
import { db } from '@/lib/db';
import { resetEnvForTests } from '@/lib/env';
import { getInstanceSecret, noteInstanceSecret, resetInstanceSecretForTests } from './instance-secret';

const before = process.env.TOOLGATE_SECRET;

/** A restart with TOOLGATE_SECRET as given (undefined: unset). */
function restartWith(secret: string | undefined): void {
  if (secret === undefined) delete process.env.TOOLGATE_SECRET;
  else process.env.TOOLGATE_SECRET = secret;
  resetEnvForTests();
  resetInstanceSecretForTests();
}

afterEach(async () => {
  restartWith(before);
  await db().setting.deleteMany({ where: { key: { in: ['instance_secret', 'instance_secret_fingerprint'] } } });
});

describe('noteInstanceSecret', () => {
  it('is quiet on a new database and on restarts with the same secret, and warns once when the secret changes', async () => {
    restartWith(undefined);
    expect(await noteInstanceSecret()).toBeNull();
    const generated = await getInstanceSecret();
    restartWith(undefined);
    expect(await noteInstanceSecret()).toBeNull();

    // The operator sets TOOLGATE_SECRET for production on the database the demo ran on.
    restartWith('a-production-secret-of-at-least-32-chars');
    expect(await noteInstanceSecret()).toMatch(
      /^the instance secret is not the one this database was last served with .*dashboard sessions end/,
    );
    restartWith('a-production-secret-of-at-least-32-chars');
    expect(await noteInstanceSecret()).toBeNull();

    // Removed again: the generated secret is back in use, and that is a change too.
    restartWith(undefined);
    expect(await getInstanceSecret()).toBe(generated);
    expect(await noteInstanceSecret()).toMatch(/^the instance secret is not the one/);

    // Only a one-way fingerprint of it is stored.
    const fingerprint = await db().setting.findUniqueOrThrow({ where: { key: 'instance_secret_fingerprint' } });
    expect(fingerprint.value).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(fingerprint.value).not.toContain(generated.slice(0, 8));
  });

  it('warns when TOOLGATE_SECRET is first set on a database from before fingerprints that ran on a generated secret', async () => {
    restartWith(undefined);
    await getInstanceSecret();
    restartWith('a-production-secret-of-at-least-32-chars');
    expect(await noteInstanceSecret()).toMatch(/^the instance secret is not the one/);
  });

  it('is quiet when a new database starts with TOOLGATE_SECRET set', async () => {
    restartWith('a-production-secret-of-at-least-32-chars');
    expect(await noteInstanceSecret()).toBeNull();
    restartWith('a-production-secret-of-at-least-32-chars');
    expect(await noteInstanceSecret()).toBeNull();
  });
});
