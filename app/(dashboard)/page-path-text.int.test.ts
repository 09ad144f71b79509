import { beforeAll, describe, expect, it, vi } from 'vitest';
import { addMember } from '@/lib/tenants/add-member';
import { createTestTenant, publishContract } from '@/lib/testing/fixtures';
import { lookupOrderContract } from '@/lib/contracts/examples';
import { ORIGIN, signIn } from '@/lib/api/tests/member-sessions';

// Dashboard pages that look a row up by what their URL holds: a NUL there (`%00` in the path
// or `?version=`), which no text column holds, failed the lookup on PostgreSQL (22021) and the
// page threw it, so the person got the error page (a 500), where SQLite found nothing. It names
// nothing now, on both databases: the page renders as for any unknown version or tool.

let requestHeaders = new Headers();
vi.mock('next/headers', () => ({ headers: async () => requestHeaders }));

const contractPage = (await import('./contracts/[id]/page')).default;
const driftPage = (await import('./mcp/[server]/tools/[tool]/drift/page')).default;

beforeAll(async () => {
  const t = await createTestTenant({ slug: 'nul-pages' });
  await publishContract(t.tenant.id, lookupOrderContract);
  await addMember({ tenantId: t.tenant.id, email: 'nul-pages@tenants.test', password: 'a-long-password', role: 'admin' });
  requestHeaders = new Headers({ cookie: (await signIn('nul-pages@tenants.test', 'a-long-password')).cookie, origin: ORIGIN });
});

/** The text a rendered element tree holds (its string children), for asserting on what a page says. */
function textOf(node: unknown, seen = new Set<unknown>()): string {
  if (typeof node === 'string' || typeof node === 'number') return String(node);
  if (!node || typeof node !== 'object' || seen.has(node)) return '';
  seen.add(node);
  if (Array.isArray(node)) return node.map((child) => textOf(child, seen)).join('');
  return textOf((node as { props?: { children?: unknown } }).props?.children, seen);
}

describe('a NUL in what a dashboard page looks up', () => {
  it('?version= of a contract page: the page renders, with no version opened', async () => {
    const page = await contractPage({
      params: Promise.resolve({ id: lookupOrderContract.id }),
      searchParams: Promise.resolve({ version: `${lookupOrderContract.version}\u0000` }),
    });
    expect(page).toBeTruthy();
  });

  it("an MCP tool's drift page: says the tool was not found", async () => {
    const page = await driftPage({ params: Promise.resolve({ server: 'github', tool: 'search%00' }) });
    expect(textOf(page)).toContain('MCP tool "github/search\u0000" was not found.');
  });
});
