import { spawn } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli as run } from '@/lib/testing/run-cli';
import { db } from '@/lib/db';
import { verifyEvidenceChain } from '@/lib/evidence/verify-evidence-chain';
import { call } from '@/lib/testing/api-client';
import { acceptInvitationHandler as accept } from '@/lib/api/handlers/invitations';
import { validatePreHandler as validatePre } from '@/lib/api/handlers/validate';
import { lookupOrderContract } from '@/lib/contracts/examples';
import { createTestTenant, publishContract } from '@/lib/testing/fixtures';

describe('toolgate tenants (in process, on the test database)', () => {
  it('creates a tenant and an admin invitation recorded as done by the system; the printed link makes an admin', async () => {
    const result = await run(['tenants', 'create', 'cli-acme', '--name', 'Acme from the CLI', '--admin', ' Ops@Acme.TEST ']);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(
      /^Created tenant "cli-acme" \(Acme from the CLI\)\.\nInvitation for its admin ops@acme\.test \(single use, expires \S+\):\n {2}http:\/\/localhost:3000\/invite\/[A-Za-z0-9_-]{43}\nNot e-mailed \(TOOLGATE_SMTP_URL is not set\): pass the link on yourself\.\n$/,
    );
    const tenant = await db().tenant.findUniqueOrThrow({ where: { slug: 'cli-acme' } });
    const record = await db().evidence.findFirstOrThrow({ where: { tenant: { tenantId: tenant.id }, kind: 'membership' } });
    expect(record).toMatchObject({ decision: 'member_invited', actorUserId: null, apiKeyId: null });
    expect(JSON.parse(record.details ?? '{}')).toMatchObject({ email: 'ops@acme.test', role: 'admin' });
    expect((await db().invitation.findFirstOrThrow({ where: { tenantId: tenant.id } })).invitedBy).toBe('system');

    const token = /\/invite\/(\S+)/.exec(result.stdout)?.[1] ?? '';
    const accepted = await call(accept, { body: { token, password: 'cli-admin-password' } });
    expect(accepted.status).toBe(201);
    expect(accepted.body).toMatchObject({ role: 'admin', tenant: { slug: 'cli-acme' } });
    expect((await verifyEvidenceChain({ tenantId: tenant.id })).valid).toBe(true);
  });

  it('refuses an existing slug (exit 1) and a bad slug or email (exit 2), creating nothing', async () => {
    const before = await db().tenant.count();
    expect(await run(['tenants', 'create', 'cli-acme', '--admin', 'other@acme.test'])).toMatchObject({
      code: 1,
      stderr: 'toolgate tenants: a tenant "cli-acme" exists already; nothing was changed.\n',
    });
    expect((await run(['tenants', 'create', 'Not A Slug', '--admin', 'a@b.test'])).code).toBe(2);
    expect((await run(['tenants', 'create', 'fine-slug', '--admin', 'not-an-email'])).code).toBe(2);
    expect(await db().tenant.count()).toBe(before);
  });

  it('lists tenants with their member counts', async () => {
    const result = await run(['tenants', 'list']);
    expect(result.code).toBe(0);
    const lines = result.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^SLUG\s+NAME\s+MEMBERS\s+CREATED$/);
    expect(lines.find((l) => l.startsWith('cli-acme '))).toMatch(/^cli-acme\s+Acme from the CLI\s+1\s+\d{4}-\d\d-\d\dT/);
  });
});

describe('toolgate tenants rebuild-rollups', () => {
  it("recounts a tenant's dashboard rollups from its evidence (after a restore), and refuses a slug that names no tenant", async () => {
    const t = await createTestTenant({ slug: 'cli-rollups' });
    await publishContract(t.tenant.id, lookupOrderContract);
    for (const orderId of ['ord_abc123', 'not an order id', 'ord_def456'])
      await call(validatePre, {
        key: t.agentKey,
        body: {
          tool: 'orders.lookup',
          call_id: orderId,
          arguments: { tenant_id: 'acme', order_id: orderId },
          context: { tenant_id: 'acme' },
        },
      });
    const rollups = async () =>
      (await db().evidenceRollup.findMany({ where: { tenantId: t.tenant.id } }))
        .map((r) => `${r.hour.toISOString()} ${r.kind} ${r.decision} ${r.records}`)
        .sort();
    const counted = await rollups();
    expect(counted.length).toBeGreaterThan(0);
    // A restore brings evidence back without the rows counted from it.
    await db().evidenceRollup.deleteMany({ where: { tenantId: t.tenant.id } });
    await db().violationRollup.deleteMany({ where: { tenantId: t.tenant.id } });

    const result = await run(['tenants', 'rebuild-rollups', 'cli-rollups']);
    expect(result).toMatchObject({ code: 0, stderr: '' });
    expect(result.stdout).toMatch(/^Recounted the rollups of "cli-rollups" in \d+ ms\.\n$/);
    expect(await rollups()).toEqual(counted);
    expect(await db().violationRollup.count({ where: { tenantId: t.tenant.id } })).toBeGreaterThan(0);

    expect(await run(['tenants', 'rebuild-rollups', 'cli-rollups', 'no-such-tenant'])).toEqual({
      code: 1,
      stdout: '',
      stderr: 'toolgate tenants: no tenant "no-such-tenant"; nothing was recounted.\n',
    });
  });
});

describe('npx toolgate tenants (a child process)', () => {
  it('applies migrations and runs against DATABASE_URL', async () => {
    const bin = path.resolve(__dirname, '../../bin/toolgate.mjs');
    const result = await new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve, reject) => {
      const child = spawn(process.execPath, [bin, 'tenants', 'create', 'cli-child', '--admin', 'child@acme.test'], {
        // Run beside the server without its settings: the printed link names localhost, and says so.
        env: { ...process.env, VITEST: '', TOOLGATE_PUBLIC_URL: '' },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
      child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      child.on('error', reject);
      child.on('close', (code) => resolve({ code, stdout, stderr }));
    });
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('Created tenant "cli-child"');
    expect(result.stdout).toContain('(TOOLGATE_PUBLIC_URL is not set here, so the link names http://localhost;');
    expect(await db().invitation.count({ where: { tenant: { slug: 'cli-child' }, email: 'child@acme.test', role: 'admin' } })).toBe(1);
  }, 60_000);
});
