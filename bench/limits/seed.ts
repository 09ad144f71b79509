// Seeds bench/limits' database: two tenants, each with the same 1,000,000 evidence rows
// (bench/dashboard's generator, written raw), 20 agent keys, the refund contract and one policy.
// `plain` allows refunds; `limited` allows them under three limits. The generator's most
// popular tool is renamed payments.refund, so about a fifth of the seeded calls are refunds,
// and the limited tenant's counters are what its commits would have left for those calls
// (counted by historyIncrements, as the live commit counts) over the 30 days. The bench's own
// users and keys are among the most active in the seeded history.
import type { DatabaseTarget } from '../../lib/db/database-url';
import { migrateDatabase } from '../../lib/db/migrate-database';
import { db } from '../../lib/db';
import { ensureTenantKey } from '../../lib/evidence/tenant-key';
import { createTenant } from '../../lib/tenants/create-tenant';
import { createApiKey } from '../../lib/auth/api-keys';
import { saveDocumentDraft } from '../../lib/documents/save-document-draft';
import { publishDocumentVersion } from '../../lib/documents/publish-document-version';
import type { ToolContract } from '../../lib/contracts/contract-schema';
import { refundPaymentContract } from '../../lib/contracts/examples';
import { compilePolicy, type CompiledPolicy } from '../../lib/policies/compile-policy';
import { historyIncrements } from '../../lib/history/call-history';
import { bulkWriter } from '../dashboard/bulk-writer';
import { generate, seedContractHashes, type Row } from '../dashboard/seed';
import { contractHashKeys } from '../../lib/evidence/stored-record';
import { insertCounters, type SeededCounter } from './counters';

export const TOOL = 'payments.refund';
/** Users and keys the load spreads its calls over (of the 500 users and 20 keys in the history). */
export const LOAD_USERS = 8;
export const LOAD_KEYS = 4;
const USERS = 500;
const KEYS = 20;
const DAYS = 30;

// The example refund contract, without its approval: a held call counts only once approved, and
// the bench wants every call allowed and counted.
export const benchContract: ToolContract = {
  ...refundPaymentContract,
  annotations: { ...refundPaymentContract.annotations, approval_required: false, approver_roles: [] },
};

const allowRefunds = {
  id: 'support-refunds',
  tools: [TOOL],
  decision: 'allow',
  reason: 'support and finance may refund captured payments',
};
export const plainPolicy = { id: 'refunds', version: '1.0.0', rules: [allowRefunds] };
// Large enough never to deny during a run: the bench measures the check, not refusals.
export const limitedPolicy = {
  ...plainPolicy,
  limits: [
    { id: 'per-key-hourly', tools: [TOOL], per: 'key', window: '1h', max_calls: 1_000_000, when_exceeded: 'deny' },
    { id: 'per-user-daily', tools: [TOOL], per: 'user', window: '1d', max_calls: 1_000_000, when_exceeded: 'deny' },
    {
      id: 'tenant-daily-budget',
      tools: [TOOL],
      per: 'tenant',
      window: '1d',
      max_sum: { path: 'amount_cents', value: 10_000_000_000 },
      when_exceeded: 'deny',
    },
  ],
};

export function compiled(document: unknown): CompiledPolicy {
  const result = compilePolicy(document);
  if (!result.ok) throw new Error(result.problems.join('; '));
  return result.policy;
}

export const userId = (i: number) => `user-${String(i).padStart(4, '0')}`;

/** A refund call as an agent sends it; `i` spreads calls over users, sessions and amounts. */
export function refundCall(i: number) {
  const user = userId(i % LOAD_USERS);
  return {
    arguments: {
      tenant_id: 'acme',
      payment_id: `pay_${String(10_000_000 + i)}`,
      amount_cents: 100 + ((i * 7919) % 20_000),
      reason: 'requested_by_customer',
    },
    context: {
      tenant_id: 'acme',
      user_id: user,
      session_id: `${user}-s${Math.floor(i / 64) % 16}`,
      roles: ['support', 'finance'],
      state: { payment_status: 'captured' },
    },
  };
}

export interface BenchTenant {
  slug: 'plain' | 'limited';
  id: string;
  /** The API keys the load uses, most active first. */
  keys: string[];
  /** The last seeded evidence seq. */
  seededSeq: number;
}

export interface Seeded {
  plain: BenchTenant;
  limited: BenchTenant;
  counters: number;
  seconds: number;
}

/** mulberry32, as in bench/dashboard: the same history on every run and database. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

async function prepareTenant(slug: 'plain' | 'limited', policy: Record<string, unknown>) {
  const tenant = await createTenant({ slug, name: `Bench ${slug}` });
  const keys: { key: string; id: string }[] = [];
  for (let i = 0; i < KEYS; i++) {
    const created = await createApiKey({ tenantId: tenant.id, name: `agent-${String(i + 1).padStart(2, '0')}`, scopes: ['validate'] });
    keys.push({ key: created.key, id: created.apiKey.id });
  }
  await saveDocumentDraft({ tenantId: tenant.id, kind: 'contract', document: benchContract });
  await publishDocumentVersion({ tenantId: tenant.id, kind: 'contract', id: benchContract.id, version: benchContract.version });
  await saveDocumentDraft({ tenantId: tenant.id, kind: 'policy', document: policy });
  await publishDocumentVersion({ tenantId: tenant.id, kind: 'policy', id: String(policy.id), version: String(policy.version) });
  return { tenant, keys };
}

export async function seedBench(target: DatabaseTarget, rows: number): Promise<Seeded> {
  const started = performance.now();
  await migrateDatabase(target.url);
  process.env.DATABASE_URL = target.url;
  // Set up first, as a tenant does before its first call; the seeded records come after.
  const plain = await prepareTenant('plain', plainPolicy);
  const limited = await prepareTenant('limited', limitedPolicy);
  const tracked = compiled(limitedPolicy).historyQueries;
  const counters = new Map<string, SeededCounter>();
  const end = new Date();
  const writer = bulkWriter(target);
  const out: Partial<Record<'plain' | 'limited', BenchTenant>> = {};
  for (const [slug, prepared] of [
    ['plain', plain],
    ['limited', limited],
  ] as const) {
    const random = prng(1234);
    let last: Row | undefined;
    await generate(
      {
        tenantId: prepared.tenant.id,
        tenantKey: await ensureTenantKey(prepared.tenant.id),
        rows,
        end,
        days: DAYS,
        seed: 42,
        apiKeyIds: prepared.keys.map((k) => k.id),
        contractHashKeys: await contractHashKeys(seedContractHashes()),
      },
      async (chunk) => {
        for (const row of chunk.evidence) {
          if (row.tool === 'svc00.action_00') row.tool = TOOL;
          if (row.tool !== TOOL || row.kind !== 'pre') continue;
          // Who made it and for how much: not in the evidence row, drawn the same for both tenants.
          const user = userId(Math.min(USERS - 1, Math.floor(USERS * Math.pow(random(), 2.2))));
          const amount = 100 + Math.floor(random() * 20_000);
          if (slug === 'plain') continue;
          const call = {
            tool: TOOL,
            arguments: { amount_cents: amount },
            context: { user_id: user },
            apiKeyId: row.apiKeyId as string | null,
          };
          const at = (row.createdAt as Date).getTime();
          for (const inc of historyIncrements(tracked, call, row.decision as string, at)) {
            const key = `${inc.series}|${inc.scope}|${inc.bucket}`;
            const known = counters.get(key);
            if (known) {
              known.count += 1;
              known.total += inc.total;
              known.lastAt = Math.max(known.lastAt, inc.at);
            } else
              counters.set(key, { series: inc.series, scope: inc.scope, bucket: inc.bucket, count: 1, total: inc.total, lastAt: inc.at });
          }
        }
        for (const row of chunk.violations) if (row.tool === 'svc00.action_00') row.tool = TOOL;
        for (const row of chunk.approvals) if (row.tool === 'svc00.action_00') row.tool = TOOL;
        last = chunk.evidence.at(-1) ?? last;
        await writer.write(chunk);
      },
    );
    if (!last) throw new Error('nothing seeded');
    // The chain goes on from the seeded records, as it would have after them.
    await db().evidenceChainHead.create({ data: { tenantId: prepared.tenant.id, seq: Number(last.seq), hash: String(last.hash) } });
    // The retention purge already went past them (they carry no payloads): without this, the
    // server's first purge, a minute after it starts, walks both tenants' records mid-run.
    await db().setting.create({
      data: {
        key: `retention_purge:${prepared.tenant.id}`,
        value: JSON.stringify({ seq: Number(last.seq), unrecorded: { evidence: 0, approvals: 0, legacy: 0 } }),
      },
    });
    out[slug] = { slug, id: prepared.tenant.id, keys: prepared.keys.slice(0, LOAD_KEYS).map((k) => k.key), seededSeq: Number(last.seq) };
  }
  await writer.close();
  await insertCounters(target, limited.tenant.id, [...counters.values()]);
  if (target.provider === 'postgresql') {
    // What autovacuum does on its own a little later (statistics, the visibility map).
    for (const table of ['Evidence', 'Violation', 'Approval', 'HistoryCounter']) await db().$executeRawUnsafe(`VACUUM ANALYZE "${table}"`);
  }
  return {
    plain: out.plain as BenchTenant,
    limited: out.limited as BenchTenant,
    counters: counters.size,
    seconds: (performance.now() - started) / 1000,
  };
}
