// Keys belong to the tenant and outlive the person who made them; the list says whose each key
// is and whether that person is still a member, so a removed admin's keys can be found.
import { beforeAll, describe, expect, it } from 'vitest';
import { addMember } from '@/lib/tenants/add-member';
import { call } from '@/lib/testing/api-client';
import { createTestTenant } from '@/lib/testing/fixtures';
import { createApiKeyHandler as createKey, listApiKeysHandler as listKeys } from '@/lib/api/handlers/api-keys';
import { removeMemberHandler as removeMember } from '@/lib/api/handlers/members';
import { asSession, signIn } from './member-sessions';

let t: Awaited<ReturnType<typeof createTestTenant>>;
beforeAll(async () => {
  t = await createTestTenant({ slug: 'key-people' });
  // Another admin stays, so Erin is not the last one and can be removed.
  await addMember({ tenantId: t.tenant.id, email: 'ops@key-people.test', password: 'a-long-password', role: 'admin' });
});

describe('GET /api-keys names the person each key belongs to', () => {
  it('with their email and whether they are still a member; nobody for a command-line key', async () => {
    const { user, membership } = await addMember({
      tenantId: t.tenant.id,
      email: 'erin@key-people.test',
      password: 'a-long-password',
      role: 'admin',
    });
    const erin = await signIn('erin@key-people.test', 'a-long-password');
    const made = await call(createKey, { headers: asSession(erin.cookie), body: { name: 'erin key', scopes: ['admin'] } });
    expect(made.status).toBe(201);
    expect(made.body.api_key.createdBy).toEqual({ userId: user.id, email: 'erin@key-people.test', member: true });
    const child = await call(createKey, { key: made.body.key, body: { name: 'made by erin key', scopes: ['validate'] } });
    expect(child.body.api_key.createdBy).toMatchObject({ userId: user.id, member: true });

    expect((await call(removeMember, { key: t.adminKey, params: { id: membership.id } })).status).toBe(200);
    const listed = await call(listKeys, { key: t.adminKey });
    const byName = new Map(listed.body.api_keys.map((k: { name: string; createdBy: unknown }) => [k.name, k.createdBy]));
    expect(byName.get('erin key')).toEqual({ userId: user.id, email: 'erin@key-people.test', member: false });
    expect(byName.get('made by erin key')).toMatchObject({ member: false });
    // The tenant's own admin key was made from the command line: it is nobody's.
    expect([...byName.values()].filter((c) => c === null).length).toBeGreaterThan(0);
  });
});
