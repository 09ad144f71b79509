import { beforeAll, describe, expect, it, vi } from 'vitest';
import { db } from '@/lib/db';
import { addMember } from '@/lib/tenants/add-member';
import { createTestTenant } from '@/lib/testing/fixtures';
import { ORIGIN, signIn } from '@/lib/api/tests/member-sessions';

// The dashboard's Server Actions look rows up by the ids and names their forms carry. One with a
// NUL, which no text column holds, failed that lookup on PostgreSQL (22021) and the action threw
// it, so the person got Next's error page (a 500); SQLite found nothing. Every action now answers
// it as a refusal naming the field, on both databases, before any lookup.

let requestHeaders = new Headers();
vi.mock('next/headers', () => ({ headers: async () => requestHeaders }));
vi.mock('next/cache', () => ({ revalidatePath: () => undefined }));

const { revokeKeyAction } = await import('./api-keys/actions');
const { deleteMcpServerAction, acceptMcpDriftAction } = await import('./mcp/actions');
const { changeRoleAction, removeMemberAction, revokeInvitationAction } = await import('./members/actions');
const { deleteWebhookAction } = await import('./settings/actions');

let t: Awaited<ReturnType<typeof createTestTenant>>;

beforeAll(async () => {
  t = await createTestTenant({ slug: 'nul-actions' });
  await addMember({ tenantId: t.tenant.id, email: 'nul-actions@tenants.test', password: 'a-long-password', role: 'admin' });
  requestHeaders = new Headers({ cookie: (await signIn('nul-actions@tenants.test', 'a-long-password')).cookie, origin: ORIGIN });
});

function form(fields: Record<string, string>): FormData {
  const f = new FormData();
  for (const [name, value] of Object.entries(fields)) f.set(name, value);
  return f;
}

const IDLE = { status: 'idle' } as const;
const refused = (field: string) => ({
  status: 'error',
  message: `The form's "${field}" field cannot contain NUL (U+0000); nothing was changed.`,
});

describe('a NUL in a field of a dashboard form', () => {
  it.each([
    ['revoke an API key', () => revokeKeyAction(IDLE, form({ id: 'key\u0000' })), 'id'],
    ['delete an MCP server', () => deleteMcpServerAction(IDLE, form({ name: 'srv\u0000' })), 'name'],
    ['accept MCP drift', () => acceptMcpDriftAction(IDLE, form({ server: 'srv', tool: 'tool\u0000', hash: 'a'.repeat(64) })), 'tool'],
    ["change a member's role", () => changeRoleAction(IDLE, form({ id: 'member\u0000', role: 'viewer' })), 'id'],
    ['remove a member', () => removeMemberAction(IDLE, form({ id: 'member\u0000' })), 'id'],
    ['revoke an invitation', () => revokeInvitationAction(IDLE, form({ id: 'invitation\u0000' })), 'id'],
    ['delete a webhook', () => deleteWebhookAction(IDLE, form({ id: 'hook\u0000' })), 'id'],
  ])('to %s is refused, naming the field, on both databases', async (_what, act, field) => {
    await expect(act()).resolves.toEqual(refused(field));
  });

  it('changes nothing: the tenant keeps its keys', async () => {
    const before = await db().apiKey.count({ where: { tenantId: t.tenant.id, revokedAt: null } });
    await revokeKeyAction(IDLE, form({ id: `${t.agentKeyId}\u0000` }));
    expect(await db().apiKey.count({ where: { tenantId: t.tenant.id, revokedAt: null } })).toBe(before);
  });
});
