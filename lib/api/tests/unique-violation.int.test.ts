import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { db } from '@/lib/db';
import { createTestTenant } from '@/lib/testing/fixtures';
import { defineRoute } from '../define-route';

// A row two requests made at the same moment, where the code path did not expect it: the unique
// key refuses the second (Prisma's P2002). That is the caller's retry to make, not a 500.
describe('a unique key refusing a row', () => {
  it('answers 409 conflict with the envelope, on a real database', async () => {
    const { tenant } = await createTestTenant();
    const route = defineRoute({
      auth: 'none',
      response: z.object({}),
      handler: async () => {
        await db().tenant.create({ data: { slug: tenant.slug, name: 'the same slug again' } });
        return { body: {} };
      },
    });
    const response = await route(new Request('http://localhost:3000/api/v1/anything', { method: 'POST' }));
    expect(response.status).toBe(409);
    const body = (await response.json()) as { error: { code: string; message: string } };
    expect(body.error).toEqual({
      code: 'conflict',
      message: 'Another request made the same thing at the same moment. Retry to see what it made.',
    });
  });
});
