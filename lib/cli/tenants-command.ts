import type { CliIo } from './cli-io';

/**
 * `toolgate tenants create|list|rebuild-rollups`: instance administration from the command line. The database
 * modules are imported only when the command runs, so `toolgate lint` never loads a database
 * client.
 */

export const TENANTS_USAGE = [
  'Usage: toolgate tenants create <slug> [--name <name>] --admin <email>',
  '       toolgate tenants list',
  '       toolgate tenants rebuild-rollups [<slug>...]',
  '',
  'Instance administration on DATABASE_URL (default ./data/toolgate.db); migrations are applied first.',
  '  create  creates the tenant and an invitation for its first admin, and prints the link',
  "          (also e-mailed when TOOLGATE_SMTP_URL is set). Recorded in the tenant's evidence",
  '          with the actor "system".',
  '  list    every tenant: slug, name, members, created.',
  "  rebuild-rollups  recounts the dashboards' hourly counts from the evidence of the tenants named",
  '          (every tenant when none is): after evidence was restored from a backup or changed',
  "          outside Toolgate. Each tenant's recount is one transaction.",
  'Exit status: 0 done, 1 refused (e.g. the slug exists), 2 usage error.',
].join('\n');

const EXIT = { ok: 0, refused: 1, usage: 2 } as const;

type CreateArgs = { slug: string; name?: string; admin: string };

export function parseTenantsArgs(
  args: readonly string[],
):
  | { ok: true; command: 'list' }
  | { ok: true; command: 'create'; args: CreateArgs }
  | { ok: true; command: 'rebuild-rollups'; slugs: string[] }
  | { ok: false; help: boolean; message: string } {
  const [sub, ...rest] = args;
  if (sub === undefined) return { ok: false, help: false, message: 'Name a subcommand: create, list or rebuild-rollups.' };
  if (sub === '--help' || sub === '-h') return { ok: false, help: true, message: TENANTS_USAGE };
  if (sub === 'list') {
    if (rest.length > 0) return { ok: false, help: false, message: `"tenants list" takes no arguments; got "${rest[0]}".` };
    return { ok: true, command: 'list' };
  }
  if (sub === 'rebuild-rollups') {
    if (rest.includes('--help') || rest.includes('-h')) return { ok: false, help: true, message: TENANTS_USAGE };
    const option = rest.find((arg) => arg.startsWith('-'));
    if (option !== undefined) return { ok: false, help: false, message: `Unknown option ${option.slice(0, 40)}.` };
    return { ok: true, command: 'rebuild-rollups', slugs: [...new Set(rest)] };
  }
  if (sub !== 'create')
    return { ok: false, help: false, message: `Unknown subcommand "${sub.slice(0, 40)}"; use create, list or rebuild-rollups.` };
  const positional: string[] = [];
  const options: { name?: string; admin?: string } = {};
  for (let i = 0; i < rest.length; i += 1) {
    const arg = rest[i] as string;
    if (arg === '--help' || arg === '-h') return { ok: false, help: true, message: TENANTS_USAGE };
    if (!arg.startsWith('--')) {
      positional.push(arg);
      continue;
    }
    const eq = arg.indexOf('=');
    const flag = eq === -1 ? arg : arg.slice(0, eq);
    if (flag !== '--name' && flag !== '--admin') return { ok: false, help: false, message: `Unknown option ${arg.slice(0, 40)}.` };
    const value = eq === -1 ? rest[(i += 1)] : arg.slice(eq + 1);
    if (value === undefined || value === '') return { ok: false, help: false, message: `${flag} needs a value.` };
    options[flag === '--name' ? 'name' : 'admin'] = value;
  }
  if (positional.length !== 1)
    return { ok: false, help: false, message: positional.length === 0 ? "Name the tenant's slug." : 'Give exactly one slug.' };
  if (!options.admin) return { ok: false, help: false, message: 'Name the first admin with --admin <email>.' };
  return { ok: true, command: 'create', args: { slug: positional[0] as string, name: options.name, admin: options.admin } };
}

export async function runTenantsCommand(args: readonly string[], io: CliIo): Promise<number> {
  const parsed = parseTenantsArgs(args);
  if (!parsed.ok) {
    if (parsed.help) {
      io.stdout(`${parsed.message}\n`);
      return EXIT.ok;
    }
    io.stderr(`toolgate tenants: ${parsed.message}\n\n${TENANTS_USAGE}\n`);
    return EXIT.usage;
  }
  const { migrateDatabase, DatabaseStartError } = await import('../db/migrate-database');
  const { disconnectDb } = await import('../db');
  const { closeEvidenceWriter } = await import('../evidence/record-evidence');
  try {
    try {
      await migrateDatabase();
    } catch (error) {
      if (!(error instanceof DatabaseStartError)) throw error;
      io.stderr(`toolgate tenants: ${error.message}\n`);
      return EXIT.refused;
    }
    if (parsed.command === 'list') return await listTenants(io);
    if (parsed.command === 'rebuild-rollups') return await rebuildTenantRollups(parsed.slugs, io);
    return await createTenantWithAdmin(parsed.args, io);
  } finally {
    await closeEvidenceWriter();
    await disconnectDb();
  }
}

async function rebuildTenantRollups(slugs: string[], io: CliIo): Promise<number> {
  const { db } = await import('../db');
  const { rebuildRollups } = await import('../rollups/rebuild-rollups');
  const tenants = await db().tenant.findMany({
    where: slugs.length > 0 ? { slug: { in: slugs } } : {},
    orderBy: { slug: 'asc' },
    select: { id: true, slug: true },
  });
  const missing = slugs.filter((slug) => !tenants.some((t) => t.slug === slug));
  if (missing.length > 0) {
    io.stderr(`toolgate tenants: no tenant ${missing.map((slug) => `"${slug.slice(0, 80)}"`).join(', ')}; nothing was recounted.\n`);
    return EXIT.refused;
  }
  for (const tenant of tenants) {
    const started = Date.now();
    await rebuildRollups({ tenantId: tenant.id });
    io.stdout(`Recounted the rollups of "${tenant.slug}" in ${Date.now() - started} ms.\n`);
  }
  if (tenants.length === 0) io.stdout('No tenants yet; nothing to recount.\n');
  return EXIT.ok;
}

async function listTenants(io: CliIo): Promise<number> {
  const { db } = await import('../db');
  const tenants = await db().tenant.findMany({
    orderBy: [{ createdAt: 'asc' }, { slug: 'asc' }],
    select: { slug: true, name: true, createdAt: true, _count: { select: { memberships: true } } },
  });
  if (tenants.length === 0) {
    io.stdout('No tenants yet. Create one with: toolgate tenants create <slug> --admin <email>\n');
    return EXIT.ok;
  }
  const rows = [
    ['SLUG', 'NAME', 'MEMBERS', 'CREATED'],
    ...tenants.map((t) => [t.slug, t.name, String(t._count.memberships), t.createdAt.toISOString()]),
  ];
  const widths = [0, 1, 2].map((col) => Math.max(...rows.map((r) => (r[col] as string).length)));
  io.stdout(`${rows.map((r) => r.map((cell, col) => (col < 3 ? cell.padEnd(widths[col] as number) : cell)).join('  ')).join('\n')}\n`);
  return EXIT.ok;
}

async function createTenantWithAdmin(args: CreateArgs, io: CliIo): Promise<number> {
  const { db } = await import('../db');
  const { AppError } = await import('../errors');
  const { createTenantUnlessTaken, TENANT_SLUG_PATTERN } = await import('../tenants/create-tenant');
  const { memberEmailSchema } = await import('../members/member-email');
  const { inviteMember } = await import('../members/invite-member');
  const { env } = await import('../env');
  if (!TENANT_SLUG_PATTERN.test(args.slug)) {
    io.stderr(`toolgate tenants: "${args.slug.slice(0, 80)}" is not a slug: use 1 to 63 lowercase letters, digits and inner hyphens.\n`);
    return EXIT.usage;
  }
  const name = args.name?.trim();
  if (name !== undefined && (name.length === 0 || name.length > 100)) {
    io.stderr('toolgate tenants: --name must be 1 to 100 characters.\n');
    return EXIT.usage;
  }
  const email = memberEmailSchema.safeParse(args.admin);
  if (!email.success) {
    io.stderr(`toolgate tenants: "${args.admin.slice(0, 80)}" is not an email address.\n`);
    return EXIT.usage;
  }
  if (await db().tenant.findUnique({ where: { slug: args.slug }, select: { id: true } })) {
    io.stderr(`toolgate tenants: a tenant "${args.slug}" exists already; nothing was changed.\n`);
    return EXIT.refused;
  }
  // Null: created by someone else between the check and here (the slug is unique).
  const tenant = await createTenantUnlessTaken({ slug: args.slug, name });
  if (!tenant) {
    io.stderr(`toolgate tenants: a tenant "${args.slug}" exists already; nothing was changed.\n`);
    return EXIT.refused;
  }
  try {
    const invited = await inviteMember({ tenantId: tenant.id, email: email.data, role: 'admin', actor: { kind: 'system' } });
    io.stdout(
      [
        `Created tenant "${tenant.slug}" (${tenant.name}).`,
        `Invitation for its admin ${email.data} (single use, expires ${invited.invitation.expiresAt.toISOString()}):`,
        `  ${invited.url}`,
        // The CLI runs beside the server, often without its settings: the link would name this machine's default port.
        ...(env().TOOLGATE_PUBLIC_URL
          ? []
          : [
              '(TOOLGATE_PUBLIC_URL is not set here, so the link names http://localhost; set it as the server has it to print the address people reach.)',
            ]),
        invited.mail.sent
          ? `E-mailed to ${email.data}.`
          : invited.mail.reason === 'failed'
            ? `The e-mail could not be sent (${invited.mail.error ?? 'unknown error'}); pass the link on yourself.`
            : 'Not e-mailed (TOOLGATE_SMTP_URL is not set): pass the link on yourself.',
        '',
      ].join('\n'),
    );
    return EXIT.ok;
  } catch (error) {
    if (error instanceof AppError) {
      io.stderr(`toolgate tenants: ${error.message}\n`);
      return EXIT.refused;
    }
    throw error;
  }
}
