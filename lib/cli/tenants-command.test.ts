import { describe, expect, it } from 'vitest';
import { runCli as run } from '@/lib/testing/run-cli';
import { parseTenantsArgs, TENANTS_USAGE } from './tenants-command';

describe('parseTenantsArgs', () => {
  it('reads create with both option spellings, and list', () => {
    expect(parseTenantsArgs(['create', 'acme', '--name', 'Acme Inc', '--admin=ops@acme.test'])).toEqual({
      ok: true,
      command: 'create',
      args: { slug: 'acme', name: 'Acme Inc', admin: 'ops@acme.test' },
    });
    expect(parseTenantsArgs(['create', '--admin', 'ops@acme.test', 'acme'])).toEqual({
      ok: true,
      command: 'create',
      args: { slug: 'acme', name: undefined, admin: 'ops@acme.test' },
    });
    expect(parseTenantsArgs(['list'])).toEqual({ ok: true, command: 'list' });
    expect(parseTenantsArgs(['rebuild-rollups'])).toEqual({ ok: true, command: 'rebuild-rollups', slugs: [] });
    expect(parseTenantsArgs(['rebuild-rollups', 'acme', 'beta', 'acme'])).toEqual({
      ok: true,
      command: 'rebuild-rollups',
      slugs: ['acme', 'beta'],
    });
  });

  it('refuses what it cannot run', () => {
    expect(parseTenantsArgs([])).toMatchObject({ ok: false, help: false });
    expect(parseTenantsArgs(['create', 'acme'])).toMatchObject({ ok: false, message: 'Name the first admin with --admin <email>.' });
    expect(parseTenantsArgs(['create', '--admin', 'a@b.test'])).toMatchObject({ ok: false, message: "Name the tenant's slug." });
    expect(parseTenantsArgs(['create', 'a', 'b', '--admin', 'a@b.test'])).toMatchObject({ ok: false, message: 'Give exactly one slug.' });
    expect(parseTenantsArgs(['create', 'a', '--admin'])).toMatchObject({ ok: false, message: '--admin needs a value.' });
    expect(parseTenantsArgs(['create', 'a', '--role', 'x'])).toMatchObject({ ok: false, message: 'Unknown option --role.' });
    expect(parseTenantsArgs(['list', 'extra'])).toMatchObject({ ok: false });
    expect(parseTenantsArgs(['delete', 'a'])).toMatchObject({
      ok: false,
      message: 'Unknown subcommand "delete"; use create, list or rebuild-rollups.',
    });
    expect(parseTenantsArgs(['rebuild-rollups', '--all'])).toMatchObject({ ok: false, message: 'Unknown option --all.' });
  });
});

describe('toolgate tenants', () => {
  it('prints its usage on --help (exit 0) and on a usage error (exit 2), without touching a database', async () => {
    expect(await run(['tenants', '--help'])).toEqual({ code: 0, stdout: `${TENANTS_USAGE}\n`, stderr: '' });
    const bad = await run(['tenants', 'create', 'acme']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/^toolgate tenants: Name the first admin with --admin <email>\.\n\nUsage: toolgate tenants create/);
    expect((await run(['--help'])).stdout).toContain('tenants create|list');
  });
});
