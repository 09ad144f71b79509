import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { db } from '../db';
import { NotFoundError } from '../api/errors';
import { parseScopes, type ApiKeyScope } from './api-key-scopes';

/** Keys look like `tg_<8 visible chars>_<secret>`; the first 11 characters are the shown prefix. */
const KEY_PREFIX = 'tg_';
const LAST_USED_PRECISION_MS = 60_000;

export function hashApiKey(key: string): string {
  return createHash('sha256').update(key, 'utf8').digest('hex');
}

export function visiblePrefix(key: string): string {
  return key.slice(0, 11);
}

export function generateApiKey(): string {
  return `${KEY_PREFIX}${randomBytes(6).toString('base64url').slice(0, 8)}_${randomBytes(24).toString('base64url')}`;
}

export interface ApiKeySummary {
  id: string;
  name: string;
  prefix: string;
  scopes: ApiKeyScope[];
  createdAt: Date;
  lastUsedAt: Date | null;
  revokedAt: Date | null;
}

function summarize(row: { id: string; name: string; prefix: string; scopes: string; createdAt: Date; lastUsedAt: Date | null; revokedAt: Date | null }): ApiKeySummary {
  return { id: row.id, name: row.name, prefix: row.prefix, scopes: parseScopes(row.scopes), createdAt: row.createdAt, lastUsedAt: row.lastUsedAt, revokedAt: row.revokedAt };
}

/**
 * Creates a key and returns its value once; only the SHA-256 is stored. `value` lets the
 * operator choose the key (TOOLGATE_INIT_API_KEY); otherwise a random one is generated.
 */
export async function createApiKey(options: { tenantId: string; name: string; scopes: ApiKeyScope[]; createdById?: string; value?: string }): Promise<{ key: string; apiKey: ApiKeySummary }> {
  const key = options.value ?? generateApiKey();
  const row = await db().apiKey.create({
    data: {
      tenantId: options.tenantId,
      name: options.name,
      prefix: visiblePrefix(key),
      hash: hashApiKey(key),
      scopes: [...new Set(options.scopes)].join(' '),
      createdById: options.createdById ?? null,
    },
  });
  return { key, apiKey: summarize(row) };
}

export async function listApiKeys(options: { tenantId: string }): Promise<ApiKeySummary[]> {
  const rows = await db().apiKey.findMany({ where: { tenantId: options.tenantId }, orderBy: { createdAt: 'desc' } });
  return rows.map(summarize);
}

export async function revokeApiKey(options: { tenantId: string; id: string }): Promise<ApiKeySummary> {
  // updateMany scoped by tenant: a key id from another tenant matches nothing. Revoking twice
  // keeps the first revocation time.
  await db().apiKey.updateMany({ where: { id: options.id, tenantId: options.tenantId, revokedAt: null }, data: { revokedAt: new Date() } });
  const row = await db().apiKey.findFirst({ where: { id: options.id, tenantId: options.tenantId } });
  if (!row) throw new NotFoundError('api_key', options.id);
  return summarize(row);
}

export interface AuthenticatedKey {
  id: string;
  tenantId: string;
  scopes: ApiKeyScope[];
  prefix: string;
  /** Carried along so validation needs no second query for the tenant's evidence setting. */
  storeRawArguments: boolean;
}

/**
 * Resolves a presented key. The lookup is by hash (an index probe that reveals nothing about
 * near misses); the stored hash is then compared in constant time as defence in depth.
 */
export async function authenticateApiKey(presented: string): Promise<AuthenticatedKey | null> {
  if (presented.length < 20 || presented.length > 256) return null;
  const hash = hashApiKey(presented);
  const row = await db().apiKey.findUnique({ where: { hash }, include: { tenant: { select: { storeRawArguments: true } } } });
  if (!row || row.revokedAt) return null;
  const a = Buffer.from(row.hash, 'hex');
  const b = Buffer.from(hash, 'hex');
  if (a.length !== b.length || !timingSafeEqual(a, b)) return null;
  // "Last used" is for people, so a minute's precision will do; it spares a write per call.
  if (!row.lastUsedAt || Date.now() - row.lastUsedAt.getTime() > LAST_USED_PRECISION_MS) {
    void db()
      .apiKey.update({ where: { id: row.id }, data: { lastUsedAt: new Date() } })
      .catch(() => undefined);
  }
  return { id: row.id, tenantId: row.tenantId, scopes: parseScopes(row.scopes), prefix: row.prefix, storeRawArguments: row.tenant.storeRawArguments };
}
