// The data plane and an HTTP client in one process, sequential keep-alive requests: under
// callgrind-run.sh (CALLGRIND=1) the instructions per request of the main thread (server and
// client; the client's share is the same in every A/B) and of the writer thread are repeatable,
// with no timers running (no change-counter poll, no background jobs) and no cache expiring.
// usage: bench/validate/callgrind-run.sh bench/validate/inprocess-http.ts [requests] [concurrency]
import { spawnSync } from 'node:child_process';
import http from 'node:http';
import { createScratchDatabase } from '../../lib/db/scratch-database';

const requests = Number(process.argv[2] ?? 3000);
const concurrency = Number(process.argv[3] ?? 1);
const apiKey = 'tg_bench000_benchmark-key-0123456789abcdef';
const scratch = await createScratchDatabase('sqlite', 'inprocess');
process.env.DATABASE_URL = scratch.target.url;
process.env.TOOLGATE_INIT_TENANT = 'bench';
process.env.TOOLGATE_INIT_API_KEY = apiKey;
process.env.TOOLGATE_CACHE_POLL_MS = '0';

const { migrateDatabase } = await import('../../lib/db/migrate-database');
const { bootstrap } = await import('../../lib/tenants/bootstrap');
const { db } = await import('../../lib/db');
const { saveDocumentDraft } = await import('../../lib/documents/save-document-draft');
const { publishDocumentVersion } = await import('../../lib/documents/publish-document-version');
const { lookupOrderContract } = await import('../../lib/contracts/examples');
const { setRawEvidenceStore, closeEvidenceWriter } = await import('../../lib/evidence/record-evidence');
const { threadedEvidenceStore } = await import('../../lib/evidence/evidence-writer-thread');
const { createDataPlaneServer } = await import('../../lib/data-plane/server');

await migrateDatabase();
await bootstrap();
const tenant = await db().tenant.findUniqueOrThrow({ where: { slug: 'bench' } });
await saveDocumentDraft({ tenantId: tenant.id, kind: 'contract', document: lookupOrderContract });
await publishDocumentVersion({ tenantId: tenant.id, kind: 'contract', id: lookupOrderContract.id, version: lookupOrderContract.version });
setRawEvidenceStore(threadedEvidenceStore);
const server = createDataPlaneServer();
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
const port = (server.address() as { port: number }).port;

const body = JSON.stringify({
  tool: 'orders.lookup',
  call_id: 'bench',
  arguments: { tenant_id: 'acme', order_id: 'ord_123456', include: ['items'] },
  context: { tenant_id: 'acme', user_id: 'u_1' },
});
const agent = new http.Agent({ keepAlive: true, maxSockets: concurrency });
const options = {
  agent,
  host: '127.0.0.1',
  port,
  path: '/api/v1/validate/pre',
  method: 'POST',
  headers: { 'content-type': 'application/json', authorization: `Bearer ${apiKey}`, 'content-length': Buffer.byteLength(body) },
};
function once(): Promise<void> {
  return new Promise((resolve, reject) => {
    const req = http.request(options, (res) => {
      res.resume();
      res.on('end', () => (res.statusCode === 200 ? resolve() : reject(new Error(`status ${res.statusCode}`))));
    });
    req.on('error', reject);
    req.end(body);
  });
}
async function drive(count: number): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < count) {
        next++;
        await once();
      }
    }),
  );
}

// Caches expire by Date.now (API keys, contracts): a refresh through Prisma inside the measured
// window would add more instructions than a hundred requests. Frozen here, nothing expires.
const frozen = Date.now();
Date.now = () => frozen;
await drive(Math.max(3000, requests));
const callgrind = (...a: string[]) =>
  process.env.CALLGRIND && spawnSync('callgrind_control', [...a, String(process.pid)], { stdio: 'ignore' });
callgrind('-i', 'on');
const before = process.cpuUsage();
await drive(requests);
const cpu = process.cpuUsage(before);
callgrind('-i', 'off');
callgrind('-d');
console.log(
  `${requests} requests, concurrency ${concurrency}: ${((cpu.user + cpu.system) / requests).toFixed(1)} us CPU/request (process, client included)`,
);
agent.destroy();
server.close();
await closeEvidenceWriter();
await scratch.drop();
process.exit(0);
