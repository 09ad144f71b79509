// Keys belong to the tenant and outlive the person who made them; the list says whose each key
// is and whether that person is still a member, so a removed admin's keys can be found.
import { beforeAll, describe, expect, it } from 'vitest';
import { addMember } from '@/lib/tenants/add-member';
import { call } from '@/lib/testing/api-client';
import { createTestTenant } from '@/lib/testing/fixtures';
import { createApiKeyHandler as createKey, listApiKeysHandler as listKeys } from '@/lib/api/handlers/api-keys';
import {
  changeMemberRoleHandler as changeRole,
  inviteMemberHandler as invite,
  removeMemberHandler as removeMember,
} from '@/lib/api/handlers/members';
import { validatePreHandler as validatePre } from '@/lib/api/handlers/validate';
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

describe("a key's admin and author scopes follow its person's role", () => {
  const canInvite = (key: string, email: string) => call(invite, { key, body: { email, role: 'admin' } });
  // A tool no contract names: a validate key is answered (a deny), a key without validate is 403.
  const validates = async (key: string) =>
    (await call(validatePre, { key, body: { tool: 'no.such', call_id: 'c1', arguments: {} } })).status;

  it('a demoted admin keeps validating with their admin key but cannot administer; promoted again, they can', async () => {
    const { membership } = await addMember({
      tenantId: t.tenant.id,
      email: 'dora@key-people.test',
      password: 'a-long-password',
      role: 'admin',
    });
    const dora = await signIn('dora@key-people.test', 'a-long-password');
    const key = (await call(createKey, { headers: asSession(dora.cookie), body: { name: 'dora key', scopes: ['admin'] } })).body
      .key as string;
    expect((await canInvite(key, 'first@key-people.test')).status).toBe(201);

    const scopesListed = async () =>
      ((await call(listKeys, { key: t.adminKey })).body.api_keys as { name: string; scopes: string[]; effectiveScopes: string[] }[]).find(
        (k) => k.name === 'dora key',
      );
    expect(await scopesListed()).toMatchObject({ scopes: ['admin'], effectiveScopes: ['admin'] });

    expect((await call(changeRole, { key: t.adminKey, params: { id: membership.id }, body: { role: 'approver' } })).status).toBe(200);
    expect((await canInvite(key, 'second@key-people.test')).status).toBe(403);
    expect(await validates(key)).toBe(200);
    // The list says what the key can do now, not only what it was made with.
    expect(await scopesListed()).toMatchObject({ scopes: ['admin'], effectiveScopes: ['validate'] });

    expect((await call(changeRole, { key: t.adminKey, params: { id: membership.id }, body: { role: 'admin' } })).status).toBe(200);
    expect((await canInvite(key, 'third@key-people.test')).status).toBe(201);
  });

  it('a removed admin cannot invite themselves back with their key (nor with a key it made), which still validates', async () => {
    const { membership } = await addMember({
      tenantId: t.tenant.id,
      email: 'rex@key-people.test',
      password: 'a-long-password',
      role: 'admin',
    });
    const rex = await signIn('rex@key-people.test', 'a-long-password');
    const key = (await call(createKey, { headers: asSession(rex.cookie), body: { name: 'rex key', scopes: ['validate', 'admin'] } })).body
      .key as string;
    const child = (await call(createKey, { key, body: { name: 'rex child', scopes: ['admin'] } })).body.key as string;
    expect((await canInvite(key, 'before@key-people.test')).status).toBe(201);

    expect((await call(removeMember, { key: t.adminKey, params: { id: membership.id } })).status).toBe(200);
    for (const k of [key, child]) {
      expect((await canInvite(k, 'rex@key-people.test')).status).toBe(403);
      expect(await validates(k)).toBe(200);
    }
    // A key no person made keeps its scopes.
    expect((await canInvite(t.adminKey, 'ops2@key-people.test')).status).toBe(201);
    const listed = (await call(listKeys, { key: t.adminKey })).body.api_keys as { name: string; effectiveScopes: string[] }[];
    expect(listed.find((k) => k.name === 'rex key')?.effectiveScopes).toEqual(['validate']);
    expect(listed.find((k) => k.name === 'rex child')?.effectiveScopes).toEqual(['validate']);
  });
});
