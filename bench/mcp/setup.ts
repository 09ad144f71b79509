// Prepares bench/mcp's scratch database through the app's own services, in a process of its own
// (DATABASE_URL from the environment), so the bench process holds no database connection while
// it measures. Two steps, since the draft contract only exists once the gateway has listed the
// upstream's tools:
//   register  migrations, a tenant with an agent key, the upstream registered as MCP server `fx`
//             (BENCH_UPSTREAM_URL); prints {"tenantId", "agentKey"} as one JSON line.
//   publish   the imported draft fx.echo given an owner and published (BENCH_TENANT_ID).
//   count     the evidence records of fx.echo by kind and decision, as one JSON line.
// The management API is served by Next, not the data plane, so registering through the lib
// function against the same database saves starting Next for one request.
import { migrateDatabase } from '../../lib/db/migrate-database';
import { db, disconnectDb } from '../../lib/db';
import { createTestTenant } from '../../lib/testing/fixtures';
import { registerMcpServer } from '../../lib/mcp/servers/register-mcp-server';
import { getDocumentVersionOrThrow } from '../../lib/documents/get-document-version-or-throw';
import { saveDocumentDraft } from '../../lib/documents/save-document-draft';
import { publishDocumentVersion } from '../../lib/documents/publish-document-version';

const BENCH_SERVER = 'fx';
const BENCH_CONTRACT = 'fx.echo';

function required(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set`);
  return value;
}

const step = process.argv[2];
if (step === 'register') {
  await migrateDatabase();
  const t = await createTestTenant({ slug: 'bench-mcp' });
  // No approval is needed for echo; a zero wait keeps a surprise from stalling the run.
  await registerMcpServer({
    tenantId: t.tenant.id,
    input: { name: BENCH_SERVER, url: required('BENCH_UPSTREAM_URL'), approval_wait_seconds: 0 },
  });
  process.stdout.write(`${JSON.stringify({ tenantId: t.tenant.id, agentKey: t.agentKey })}\n`);
} else if (step === 'publish') {
  const tenantId = required('BENCH_TENANT_ID');
  const draft = await getDocumentVersionOrThrow({ tenantId, kind: 'contract', id: BENCH_CONTRACT, version: '0.1.0' });
  const document = JSON.parse(JSON.stringify(draft.document)) as Record<string, unknown>;
  // An imported draft has no owner; publishing requires one.
  document.owner = 'platform-team';
  await saveDocumentDraft({ tenantId, kind: 'contract', document });
  await publishDocumentVersion({ tenantId, kind: 'contract', id: BENCH_CONTRACT, version: '0.1.0', changeNote: 'bench' });
} else if (step === 'count') {
  const groups = await db().evidence.groupBy({
    by: ['kind', 'decision'],
    where: { tenant: { tenantId: required('BENCH_TENANT_ID') }, tool: BENCH_CONTRACT, mcpServer: BENCH_SERVER },
    _count: { _all: true },
    orderBy: [{ kind: 'asc' }, { decision: 'asc' }],
  });
  process.stdout.write(`${JSON.stringify(groups.map((g) => ({ kind: g.kind, decision: g.decision, count: g._count._all })))}\n`);
} else {
  throw new Error(`usage: setup.ts register|publish|count (got ${String(step)})`);
}
await disconnectDb();
