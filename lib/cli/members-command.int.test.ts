import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { runCli as run } from '@/lib/testing/run-cli';
import { db } from '@/lib/db';
import { call } from '@/lib/testing/api-client';
import { addMember } from '@/lib/tenants/add-member';
import { createTestTenant } from '@/lib/testing/fixtures';
import { completePasswordResetHandler as complete } from '@/lib/api/handlers/password-resets';
import { signIn } from '@/lib/api/tests/member-sessions';

describe('toolgate members reset-password (in process, on the test database)', () => {
  it("prints a link that sets the locked-out admin's password", async () => {
    const { tenant } = await createTestTenant({ slug: 'cli-reset' });
    await addMember({ tenantId: tenant.id, email: 'locked-out@cli.test', password: 'forgotten-password', role: 'admin' });
    const result = await run(['members', 'reset-password', 'Locked-Out@CLI.test']);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(
      /^Password reset link for locked-out@cli\.test \(member of cli-reset; single use, expires \S+\):\n {2}http:\/\/localhost:3000\/reset-password\/[A-Za-z0-9_-]{43}\nAnyone with this link can set the password: pass it on over a channel you trust\.\n$/,
    );
    const token = /\/reset-password\/(\S+)/.exec(result.stdout)?.[1] ?? '';
    expect((await call(complete, { body: { token, password: 'remembered-this-time' } })).status).toBe(200);
    expect((await signIn('locked-out@cli.test', 'remembered-this-time')).status).toBe(200);
  });

  it('refuses an address with no account (exit 1) and a non-address or bad usage (exit 2), making no link', async () => {
    const before = await db().passwordReset.count();
    expect(await run(['members', 'reset-password', 'nobody@cli.test'])).toMatchObject({
      code: 1,
      stdout: '',
      stderr: 'toolgate members: No account has the email nobody@cli.test.\n',
    });
    expect(await run(['members', 'reset-password', 'not-an-address'])).toMatchObject({ code: 2, stdout: '' });
    for (const argv of [
      ['members'],
      ['members', 'reset'],
      ['members', 'reset-password'],
      ['members', 'reset-password', 'a@b.c', 'd@e.f'],
    ]) {
      const result = await run(argv);
      expect(result.code).toBe(2);
      expect(result.stderr).toContain('Usage: toolgate members reset-password <email>');
    }
    expect((await run(['members', 'reset-password', '--email', 'a@b.c'])).stderr).toContain('Unknown option --email.');
    expect(await db().passwordReset.count()).toBe(before);
    const help = await run(['members', '--help']);
    expect(help).toMatchObject({ code: 0, stderr: '' });
    expect(help.stdout).toContain('expires in an hour');
  });

  it('prints only the answer on stdout when run as the command, its log line on stderr', async () => {
    const { tenant } = await createTestTenant({ slug: 'cli-reset-bin' });
    await addMember({ tenantId: tenant.id, email: 'piped@cli.test', password: 'forgotten-password', role: 'author' });
    const { stdout, stderr } = await promisify(execFile)(
      process.execPath,
      ['bin/toolgate.mjs', 'members', 'reset-password', 'piped@cli.test'],
      {
        env: { ...process.env, VITEST: '', TOOLGATE_LOG: '1' },
        timeout: 60_000,
      },
    );
    expect(stdout).toMatch(/^Password reset link for piped@cli\.test /);
    expect(stdout).not.toContain('"level"');
    expect(stderr).toContain('"msg":"password reset link created"');
  });
});
