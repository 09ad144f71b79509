import type { CliIo } from './cli-io';

/**
 * `toolgate members reset-password <email>`: the operator's way back in for someone who cannot
 * sign in (a forgotten password, the last admin's included). Whoever holds the link it prints can
 * set the account's password, so it is made only here, by whoever can reach the database.
 */

export const MEMBERS_USAGE = [
  'Usage: toolgate members reset-password <email>',
  '',
  'On DATABASE_URL (default ./data/toolgate.db); migrations are applied first.',
  '  reset-password  prints a link that sets a new password for the account with this email',
  '                  (single use, expires in an hour; a newer link replaces it). Setting the',
  '                  password signs the account out everywhere. Pass the link on to the person',
  '                  yourself, over a channel you trust. Accounts that sign in only through SSO',
  '                  have no password to reset.',
  'Exit status: 0 done, 1 refused (no such account, or SSO only), 2 usage error.',
].join('\n');

const EXIT = { ok: 0, refused: 1, usage: 2 } as const;

export function parseMembersArgs(args: readonly string[]): { ok: true; email: string } | { ok: false; help: boolean; message: string } {
  const [sub, ...rest] = args;
  if (sub === undefined) return { ok: false, help: false, message: 'Name a subcommand: reset-password.' };
  if (sub === '--help' || sub === '-h' || rest.includes('--help') || rest.includes('-h'))
    return { ok: false, help: true, message: MEMBERS_USAGE };
  if (sub !== 'reset-password') return { ok: false, help: false, message: `Unknown subcommand "${sub.slice(0, 40)}"; use reset-password.` };
  const option = rest.find((arg) => arg.startsWith('-'));
  if (option !== undefined) return { ok: false, help: false, message: `Unknown option ${option.slice(0, 40)}.` };
  if (rest.length !== 1)
    return { ok: false, help: false, message: rest.length === 0 ? 'Name the email of the account.' : 'Give exactly one email.' };
  return { ok: true, email: rest[0] as string };
}

export async function runMembersCommand(args: readonly string[], io: CliIo): Promise<number> {
  const parsed = parseMembersArgs(args);
  if (!parsed.ok) {
    if (parsed.help) {
      io.stdout(`${parsed.message}\n`);
      return EXIT.ok;
    }
    io.stderr(`toolgate members: ${parsed.message}\n\n${MEMBERS_USAGE}\n`);
    return EXIT.usage;
  }
  const { migrateDatabase, DatabaseStartError } = await import('../db/migrate-database');
  const { disconnectDb } = await import('../db');
  const { AppError } = await import('../errors');
  const { createPasswordReset } = await import('../members/password-reset');
  const { env } = await import('../env');
  try {
    try {
      await migrateDatabase();
    } catch (error) {
      if (!(error instanceof DatabaseStartError)) throw error;
      io.stderr(`toolgate members: ${error.message}\n`);
      return EXIT.refused;
    }
    let reset: Awaited<ReturnType<typeof createPasswordReset>>;
    try {
      reset = await createPasswordReset({ email: parsed.email });
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      io.stderr(`toolgate members: ${error.message}\n`);
      return error.code === 'bad_request' ? EXIT.usage : EXIT.refused;
    }
    io.stdout(
      [
        `Password reset link for ${reset.email} (${reset.tenants.length === 0 ? 'a member of no tenant' : `member of ${reset.tenants.join(', ')}`}; single use, expires ${reset.expiresAt.toISOString()}):`,
        `  ${reset.url}`,
        ...(env().TOOLGATE_PUBLIC_URL
          ? []
          : [
              '(TOOLGATE_PUBLIC_URL is not set here, so the link names http://localhost; set it as the server has it to print the address people reach.)',
            ]),
        'Anyone with this link can set the password: pass it on over a channel you trust.',
        '',
      ].join('\n'),
    );
    return EXIT.ok;
  } finally {
    await disconnectDb();
  }
}
