import { expect, it } from 'vitest';
import { POST as authPost } from '@/app/api/auth/[...all]/route';
import { db } from '@/lib/db';
import { resetEnvForTests } from '@/lib/env';
import { bootstrap } from '@/lib/tenants/bootstrap';
import { allowInserts, refuseInserts } from '@/lib/testing/refuse-inserts';

// A first start whose demo seeding fails after the tenant, its admin and key were made (a disk
// that fills up while the week of calls is recorded): they were committed and never printed,
// and the next start, finding the tenant, printed nothing either.

it('prints the demo sign-in and key, and why the seed is incomplete, when seeding fails after they were made', async () => {
  const init = process.env.TOOLGATE_INIT_TENANT;
  delete process.env.TOOLGATE_INIT_TENANT;
  resetEnvForTests();
  await refuseInserts('Evidence', 'NEW."kind" IS NOT NULL');
  try {
    const report = await bootstrap();
    expect(report.created).toBe('demo');
    expect(report.incomplete).toMatch(/^the demo tenant's contracts, policies and calls could not be added: /);
    const printed = report.lines.join('\n');
    const password = /as \S+ \/ (\S+)/.exec(printed)?.[1] ?? '';
    expect(printed).toMatch(/API key: {2}tg_/);
    const signedIn = await authPost(
      new Request('http://localhost:3000/api/auth/sign-in/email', {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin: 'http://localhost:3000' },
        body: JSON.stringify({ email: 'admin@demo.toolgate.local', password }),
      }),
    );
    expect(signedIn.status).toBe(200);
    expect(await db().tenant.count({ where: { slug: 'demo' } })).toBe(1);
  } finally {
    await allowInserts('Evidence');
    if (init !== undefined) process.env.TOOLGATE_INIT_TENANT = init;
    resetEnvForTests();
  }
});
