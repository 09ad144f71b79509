import { db } from '../db';
import { compileContract, type CompiledContract } from './compile-contract';
import { invalidatedCache } from '../cache/change-feed';

export interface ResolvedContract {
  compiled: CompiledContract;
  tool: string;
  version: string;
  versionId: string;
  contentHash: string;
  /** Set when the version or the whole contract is deprecated. */
  deprecated: boolean;
}

/**
 * Compiled contracts by version id. Published versions are immutable (the content hash is part
 * of the key too), so an entry never goes stale; bounded so a tenant with many versions cannot
 * grow memory without limit.
 */
const cache = new Map<string, CompiledContract>();
const CACHE_LIMIT = 2000;
let compilations = 0;

/** How many contract versions this process has compiled: tests check the cache holds. */
export function contractCompilations(): number {
  return compilations;
}

export type ResolveOutcome =
  { found: true; contract: ResolvedContract } | { found: false; reason: 'unknown_tool' | 'version_not_found' | 'version_deprecated' };

/**
 * The published contract a call is checked against: the pinned version, or the latest
 * published one. Served from memory after the first call; on a miss, one indexed query, and the
 * document is only read (and compiled) the first time a version is seen.
 */
export function resolveContract(options: { tenantId: string; tool: string; version?: string }): Promise<ResolveOutcome> {
  // One lookup per key at a time (measured on a cold cache: 32 connections, 32 compilations).
  return outcomes().load(`${options.tenantId}\n${options.tool}\n${options.version ?? ''}`, () => lookup(options));
}

/**
 * What a (tenant, tool, version?) resolves to, so the hot path reads nothing from the database.
 * Publishing or deprecating drops it here at once and on other instances at their next change
 * poll; unknown tools are remembered too (bounded), so probing them costs no query either.
 */
let outcomeCache: ReturnType<typeof invalidatedCache<ResolveOutcome>> | undefined;
function outcomes() {
  outcomeCache ??= invalidatedCache('contracts', { maxEntries: 20_000, ttlMs: 30_000 });
  return outcomeCache;
}

async function lookup(options: { tenantId: string; tool: string; version?: string }): Promise<ResolveOutcome> {
  // PostgreSQL text cannot hold NUL, so no contract or version is named with one, and a query
  // with one fails (22021): an agent's "tool": "x\u0000" was answered 503 as if the database
  // were down, and told to retry what can never pass. SQLite answered unknown_tool; both do now.
  if (options.tool.includes('\0')) return { found: false, reason: 'unknown_tool' };
  const select = { id: true, version: true, status: true, contentHash: true } as const;
  let row: { id: string; version: string; status: string; contentHash: string } | null;
  let contractDeprecated = false;
  if (options.version) {
    // A version named with NUL is not found (as above), without the query that cannot take it.
    const found = options.version.includes('\0')
      ? null
      : await db().contractVersion.findFirst({
          where: {
            tenantId: options.tenantId,
            version: options.version,
            status: { in: ['published', 'deprecated'] },
            contract: { name: options.tool },
          },
          select: { ...select, contract: { select: { deprecatedAt: true, latestVersionId: true } } },
        });
    if (!found) {
      const exists = await db().contract.count({
        where: { tenantId: options.tenantId, name: options.tool, latestVersionId: { not: null } },
      });
      return { found: false, reason: exists ? 'version_not_found' : 'unknown_tool' };
    }
    // A version its authors deprecated is not pinned: a pin kept its rules (a looser schema, no
    // approval) after a newer version tightened them, and deprecating it was only a warning.
    // The latest version, deprecated or not, is what unpinned calls get, so pinning it is fine.
    if (found.status === 'deprecated' && found.id !== found.contract.latestVersionId) return { found: false, reason: 'version_deprecated' };
    row = found;
    contractDeprecated = found.contract.deprecatedAt !== null;
  } else {
    const contract = await db().contract.findUnique({
      where: { tenantId_name: { tenantId: options.tenantId, name: options.tool } },
      select: { deprecatedAt: true, latestVersion: { select } },
    });
    row = contract?.latestVersion ?? null;
    if (!row) return { found: false, reason: 'unknown_tool' };
    contractDeprecated = contract?.deprecatedAt != null;
  }

  const compiledKey = `${row.id}:${row.contentHash}`;
  let compiled = cache.get(compiledKey);
  if (!compiled) {
    const full = await db().contractVersion.findUniqueOrThrow({ where: { id: row.id }, select: { document: true } });
    const result = compileContract(JSON.parse(full.document));
    compilations++;
    // Publish refuses contracts that do not compile, so this only happens if the compiler got
    // stricter after publication; fail closed like an unknown tool rather than guess.
    if (!result.ok) return { found: false, reason: 'unknown_tool' };
    compiled = result.contract;
    if (cache.size >= CACHE_LIMIT) cache.delete(cache.keys().next().value as string);
    cache.set(compiledKey, compiled);
  }
  return {
    found: true,
    contract: {
      compiled,
      tool: options.tool,
      version: row.version,
      versionId: row.id,
      contentHash: row.contentHash,
      deprecated: contractDeprecated || row.status === 'deprecated',
    },
  };
}

/**
 * The tool's shadow version, if one is published as `shadow`: evaluated beside the served
 * version on every call and recorded, deciding nothing. Cached like the served version.
 */
export async function resolveShadowContract(options: { tenantId: string; tool: string }): Promise<ResolvedContract | null> {
  const key = `${options.tenantId}\n${options.tool}`;
  const cached = shadows().get(key);
  if (cached !== undefined) return cached;
  const row = await db().contractVersion.findFirst({
    where: { tenantId: options.tenantId, status: 'shadow', contract: { name: options.tool } },
    orderBy: { publishedAt: 'desc' },
    select: { id: true, version: true, contentHash: true, document: true },
  });
  let resolved: ResolvedContract | null = null;
  if (row) {
    const result = compileContract(JSON.parse(row.document));
    if (result.ok)
      resolved = {
        compiled: result.contract,
        tool: options.tool,
        version: row.version,
        versionId: row.id,
        contentHash: row.contentHash,
        deprecated: false,
      };
  }
  shadows().set(key, resolved);
  return resolved;
}

let shadowCache: ReturnType<typeof invalidatedCache<ResolvedContract | null>> | undefined;
function shadows() {
  shadowCache ??= invalidatedCache('contracts', { maxEntries: 20_000, ttlMs: 30_000 });
  return shadowCache;
}
