import { beforeAll, describe, expect, it } from 'vitest';
import { db } from '@/lib/db';
import { createApiKey } from '@/lib/auth/api-keys';
import { acceptInvitationWithPassword } from '@/lib/members/accept-invitation';
import { AppError } from '@/lib/errors';
import { call } from '@/lib/testing/api-client';
import { createTestTenant } from '@/lib/testing/fixtures';
import { createApiKeyHandler as createKey } from '@/lib/api/handlers/api-keys';
import { acceptInvitationHandler as accept } from '@/lib/api/handlers/invitations';
import { inviteMemberHandler as invite } from '@/lib/api/handlers/members';

// Names people see (a member's, an API key's) hold no control, invisible or direction-changing
// characters: a U+202E in a name shown before an email reversed how the email read.
let t: Awaited<ReturnType<typeof createTestTenant>>;
beforeAll(async () => {
  t = await createTestTenant({ slug: 'display-names' });
});

const HIDDEN = [
  'Dave\u202etxt.exe',
  'Dave\u0000',
  'Dave\u001b[2J',
  'Da\u200bve',
  '\u2066Dave\u2069',
  'Dave\u0085',
  // Fillers that draw nothing, soft hyphen, tag characters, an unassigned code point, and a lone
  // surrogate (which the database kept as three U+FFFD, a name the person never typed).
  '\u3164',
  'Dave\u115f',
  'Da\u00adve',
  'Dave\u{e0041}',
  'Dave\u{10ffff}',
  'z\ud83dz',
];

describe('names shown to people', () => {
  it('refuses API key names with hidden characters, or only spaces (400), and stores none', async () => {
    for (const name of [...HIDDEN, '   ']) {
      const res = await call(createKey, { key: t.adminKey, body: { name, scopes: ['validate'] } });
      expect(res.status, JSON.stringify(name)).toBe(400);
      expect(res.body.error.code).toBe('bad_request');
    }
    expect(await db().apiKey.count({ where: { tenantId: t.tenant.id, name: { startsWith: 'Dave' } } })).toBe(0);
    // The same refusal for every way in, not the API alone.
    await expect(createApiKey({ tenantId: t.tenant.id, name: 'bot\u202e', scopes: ['validate'] })).rejects.toThrow(AppError);
    const fine = await call(createKey, {
      key: t.adminKey,
      body: { name: '  Zoë’s deploy bot — 東京\u3000二号 ❤️  ', scopes: ['validate'] },
    });
    expect(fine.status).toBe(201);
    expect(fine.body.api_key.name).toBe('Zoë’s deploy bot — 東京\u3000二号 ❤️');
  });

  it('refuses a new member’s name with hidden characters (400), creating no account, and accepts a plain one', async () => {
    for (const [i, name] of HIDDEN.entries()) {
      const email = `hidden-${i}@display.test`;
      const invited = await call(invite, { key: t.adminKey, body: { email, role: 'viewer' } });
      const token = new URL(invited.body.invitation_url).pathname.split('/').pop() as string;
      const res = await call(accept, { body: { token, password: 'a-fine-password', name } });
      expect(res.status, JSON.stringify(name)).toBe(400);
      expect(await db().user.count({ where: { email } })).toBe(0);
      await expect(acceptInvitationWithPassword({ token, password: 'a-fine-password', name })).rejects.toThrow(AppError);
      expect((await call(accept, { body: { token, password: 'a-fine-password', name: 'Dave Ödegaard' } })).status).toBe(201);
    }
  });
});
