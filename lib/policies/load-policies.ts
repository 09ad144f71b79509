import { db } from '../db';
import { log } from '../log';
import { invalidatedCache } from '../cache/change-feed';
import { compilePolicy, type CompiledPolicy } from './compile-policy';
import type { HistoryQuery } from '../history/history-query';

/**
 * The policies a tenant's calls are evaluated against: the served version of every published
 * policy (enforced), and every version published as `shadow` (evaluated and recorded, deciding
 * nothing). Compiled once per version and held per tenant until a policy is published anywhere
 * (change feed `policies`: at once here, within a poll on other instances).
 */
export interface TenantPolicies {
  enforced: CompiledPolicy[];
  shadow: CompiledPolicy[];
  /** Every history question of the enforced and shadow policies: what each call is counted into. */
  tracked: HistoryQuery[];
}

const EMPTY: TenantPolicies = { enforced: [], shadow: [], tracked: [] };
const compiledByVersion = new Map<string, CompiledPolicy>();
const COMPILED_LIMIT = 2000;

let cache: ReturnType<typeof invalidatedCache<TenantPolicies>> | undefined;
function tenants() {
  cache ??= invalidatedCache('policies', { maxEntries: 10_000, ttlMs: 30_000 });
  return cache;
}

export async function loadPolicies(tenantId: string): Promise<TenantPolicies> {
  const hit = tenants().get(tenantId);
  if (hit) return hit;
  const rows = await db().studioDocumentVersion.findMany({
    where: { tenantId, status: { in: ['published', 'shadow'] }, owner: { kind: 'policy' } },
    select: { id: true, status: true, contentHash: true, document: true, owner: { select: { name: true, latestVersionId: true } } },
  });
  const loaded: TenantPolicies = { enforced: [], shadow: [], tracked: [] };
  for (const row of rows) {
    const served = row.owner.latestVersionId === row.id;
    if (row.status === 'published' && !served) continue;
    const compiled = compiledVersion(row.id, row.contentHash, row.document);
    (row.status === 'shadow' ? loaded.shadow : loaded.enforced).push(compiled);
  }
  // Ties between equally strict verdicts go to the first policy: make "first" stable.
  loaded.enforced.sort((a, b) => a.id.localeCompare(b.id));
  loaded.shadow.sort((a, b) => a.id.localeCompare(b.id));
  const tracked = new Map<string, HistoryQuery>();
  for (const policy of [...loaded.enforced, ...loaded.shadow]) for (const query of policy.historyQueries) tracked.set(query.key, query);
  loaded.tracked = [...tracked.values()];
  const result = loaded.enforced.length === 0 && loaded.shadow.length === 0 ? EMPTY : loaded;
  tenants().set(tenantId, result);
  return result;
}

function uncompilablePolicy(document: unknown, versionId: string): CompiledPolicy {
  const raw = (typeof document === 'object' && document !== null ? document : {}) as { id?: unknown; version?: unknown };
  const id = typeof raw.id === 'string' ? raw.id : versionId;
  const version = typeof raw.version === 'string' ? raw.version : '0.0.0';
  const reason = `Policy ${id}@${version} no longer compiles; republish it.`;
  return {
    id,
    version,
    document: { id, version },
    argConstraints: [],
    limits: [],
    historyQueries: [],
    rules: [{ id: 'uncompilable', tools: ['*'], decision: 'deny', reason, condition: null }],
  };
}

function compiledVersion(id: string, contentHash: string, text: string): CompiledPolicy {
  const key = `${id}:${contentHash}`;
  const cached = compiledByVersion.get(key);
  if (cached !== undefined) return cached;
  const document: unknown = JSON.parse(text);
  const result = compilePolicy(document);
  let compiled: CompiledPolicy;
  if (result.ok) compiled = result.policy;
  else {
    // Publishing lints policies, so this means the compiler became stricter after publication.
    // Leaving the policy out could allow what it denies: it denies everything until fixed.
    log.error('published policy does not compile; it denies every call until republished', {
      version_id: id,
      problems: result.problems.slice(0, 5),
    });
    compiled = uncompilablePolicy(document, id);
  }
  if (compiledByVersion.size >= COMPILED_LIMIT) compiledByVersion.delete(compiledByVersion.keys().next().value as string);
  compiledByVersion.set(key, compiled);
  return compiled;
}
