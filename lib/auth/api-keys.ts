import { randomBytes, timingSafeEqual } from 'node:crypto';
import { db } from '../db';
import { AppError, NotFoundError } from '../errors';
import { DISPLAY_NAME_PROBLEM, hasHiddenCharacters } from '../members/display-name';
import { parseScopes, type ApiKeyScope } from './api-key-scopes';
import { can, isRole, type Role } from '../tenants/roles';
import { bumpChange, invalidatedCache, notifyLocalChange } from '../cache/change-feed';
import { sha256Hex } from '../contracts/canonical-json';

/** Keys look like `tg_<8 visible chars>_<secret>`; the first 11 characters are the shown prefix. */
const KEY_PREFIX = 'tg_';
const LAST_USED_PRECISION_MS = 60_000;
/** Ten years: the longest lifetime a key can be given short of never. */
export const MAX_KEY_LIFETIME_DAYS = 3_650;

export function hashApiKey(key: string): string {
  // One native call (crypto.hash); this runs on every authenticated request.
  return sha256Hex(key);
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
  /** When the key stops working; null: never. */
  expiresAt: Date | null;
  /**
   * The person the key belongs to (who made it, or whose key made it), and whether they are
   * still a member: a removed admin's keys keep working (keys belong to the tenant), so an admin
   * must be able to find them. Null for a key of nobody's (the bootstrap or demo key).
   */
  createdBy: { userId: string; email: string; member: boolean } | null;
  /** The scopes the key has now: `scopes` less what its person's current role no longer allows. */
  effectiveScopes: ApiKeyScope[];
}

type KeyRow = {
  id: string;
  name: string;
  prefix: string;
  scopes: string;
  createdById: string | null;
  createdAt: Date;
  lastUsedAt: Date | null;
  revokedAt: Date | null;
  expiresAt: Date | null;
};

/** The keys with the people they belong to, looked up in two queries for the lot. */
async function summarizeAll(tenantId: string, rows: KeyRow[]): Promise<ApiKeySummary[]> {
  const ids = [...new Set(rows.map((row) => row.createdById).filter((id): id is string => id !== null))];
  const [users, members] =
    ids.length === 0
      ? [[], []]
      : await Promise.all([
          db().user.findMany({ where: { id: { in: ids } }, select: { id: true, email: true } }),
          db().membership.findMany({ where: { tenantId, userId: { in: ids } }, select: { userId: true, role: true } }),
        ]);
  const emails = new Map(users.map((user) => [user.id, user.email]));
  const roles = new Map(members.map((m) => [m.userId, isRole(m.role) ? m.role : null]));
  return rows.map((row) => {
    const email = row.createdById === null ? undefined : emails.get(row.createdById);
    const createdBy =
      row.createdById === null || email === undefined ? null : { userId: row.createdById, email, member: roles.has(row.createdById) };
    const summary = summarize(row);
    const effectiveScopes = row.createdById === null ? summary.scopes : scopesHeldBy(roles.get(row.createdById) ?? null, summary.scopes);
    return { ...summary, createdBy, effectiveScopes };
  });
}

function summarize(row: KeyRow): Omit<ApiKeySummary, 'createdBy' | 'effectiveScopes'> {
  return {
    id: row.id,
    name: row.name,
    prefix: row.prefix,
    scopes: parseScopes(row.scopes),
    createdAt: row.createdAt,
    lastUsedAt: row.lastUsedAt,
    revokedAt: row.revokedAt,
    expiresAt: row.expiresAt,
  };
}

/**
 * Creates a key and returns its value once; only the SHA-256 is stored. `value` lets the
 * operator choose the key (TOOLGATE_INIT_API_KEY); otherwise a random one is generated.
 *
 * A key belongs to a person (`createdById`): the person who created it, or, for a key created
 * with another key (`createdByKeyId`), that key's person. Approvals count people, not keys, and
 * refuse the person behind the requesting key (docs/approvals.md), so a key made by a key must
 * not become a person of its own. A key whose creating key has no person (the bootstrap or demo
 * key, made from the command line) has none either.
 */
export async function createApiKey(options: {
  tenantId: string;
  name: string;
  scopes: ApiKeyScope[];
  createdById?: string;
  createdByKeyId?: string;
  value?: string;
  /** When it stops working (at most MAX_KEY_LIFETIME_DAYS on); none: never. */
  expiresInDays?: number;
  now?: Date;
}): Promise<{ key: string; apiKey: ApiKeySummary }> {
  // Every way in (API, page, command line) gets the same refusal: the API's schema says it first.
  if (hasHiddenCharacters(options.name)) throw new AppError('bad_request', `The key's name ${DISPLAY_NAME_PROBLEM}.`, { field: 'name' });
  const days = options.expiresInDays;
  if (days !== undefined && !(Number.isInteger(days) && days >= 1 && days <= MAX_KEY_LIFETIME_DAYS))
    throw new AppError('bad_request', `A key expires in 1 to ${MAX_KEY_LIFETIME_DAYS} whole days, or never.`, { field: 'expires_in_days' });
  const expiresAt = days === undefined ? null : new Date((options.now ?? new Date()).getTime() + days * 86_400_000);
  const key = options.value ?? generateApiKey();
  // A key's person never changes, so reading it before the insert needs no transaction.
  const creatingKey =
    options.createdById === undefined && options.createdByKeyId !== undefined
      ? await db().apiKey.findFirst({ where: { id: options.createdByKeyId, tenantId: options.tenantId }, select: { createdById: true } })
      : null;
  const row = await db().apiKey.create({
    data: {
      tenantId: options.tenantId,
      name: options.name,
      prefix: visiblePrefix(key),
      hash: hashApiKey(key),
      scopes: [...new Set(options.scopes)].join(' '),
      createdById: options.createdById ?? creatingKey?.createdById ?? null,
      expiresAt,
    },
  });
  const [apiKey] = await summarizeAll(options.tenantId, [row]);
  return { key, apiKey: apiKey! };
}

export async function listApiKeys(options: { tenantId: string }): Promise<ApiKeySummary[]> {
  const rows = await db().apiKey.findMany({ where: { tenantId: options.tenantId }, orderBy: { createdAt: 'desc' } });
  return summarizeAll(options.tenantId, rows);
}

export async function revokeApiKey(options: { tenantId: string; id: string }): Promise<ApiKeySummary> {
  // updateMany scoped by tenant: a key id from another tenant matches nothing. Revoking twice
  // keeps the first revocation time.
  const revoked = await db().$transaction(async (tx) => {
    const updated = await tx.apiKey.updateMany({
      where: { id: options.id, tenantId: options.tenantId, revokedAt: null },
      data: { revokedAt: new Date() },
    });
    if (updated.count > 0) await bumpChange(tx, 'api_keys');
    return updated.count > 0;
  });
  if (revoked) notifyLocalChange('api_keys');
  const row = await db().apiKey.findFirst({ where: { id: options.id, tenantId: options.tenantId } });
  if (!row) throw new NotFoundError('api_key', options.id);
  const [summary] = await summarizeAll(options.tenantId, [row]);
  return summary!;
}

function keyExpired(at: Date): AppError {
  return new AppError(
    'unauthorized',
    `The API key expired at ${at.toISOString()}. Ask an admin of its tenant for a new key.`,
    { reason: 'key_expired', expired_at: at.toISOString() },
    { 'www-authenticate': 'Bearer error="invalid_token", error_description="The API key expired"' },
  );
}

export interface AuthenticatedKey {
  id: string;
  tenantId: string;
  scopes: ApiKeyScope[];
  prefix: string;
}

/**
 * Resolves a presented key. The lookup is by hash (an index probe that reveals nothing about
 * near misses); the stored hash is then compared in constant time as defence in depth. An
 * expired key is refused with its own reason (only its holder can ask, so it tells nobody else
 * anything): an agent's operator then knows to make a new key, not to look for a typo.
 */
export async function authenticateApiKey(presented: string, now = Date.now()): Promise<AuthenticatedKey | null> {
  if (presented.length < 20 || presented.length > 256) return null;
  const hash = hashApiKey(presented);
  const cached = keyCache().get(hash);
  if (cached) {
    if (cached.expiresAt !== null && now >= cached.expiresAt) throw keyExpired(new Date(cached.expiresAt));
    touch(cached.id, cached.lastUsedAt);
    return cached.key;
  }
  // The tenant's settings are not carried on the key: they have their own cache, dropped when
  // they change (lib/tenants/tenant-settings.ts), so a change applies to keys already in use.
  const row = await db().apiKey.findUnique({ where: { hash } });
  if (!row || row.revokedAt) return null;
  const a = Buffer.from(row.hash, 'hex');
  const b = Buffer.from(hash, 'hex');
  if (a.length !== b.length || !timingSafeEqual(a, b)) return null;
  if (row.expiresAt && now >= row.expiresAt.getTime()) throw keyExpired(row.expiresAt);
  const scopes = await scopesItsPersonHolds(row.tenantId, row.createdById, parseScopes(row.scopes));
  const key: AuthenticatedKey = { id: row.id, tenantId: row.tenantId, scopes, prefix: row.prefix };
  const entry = { key, id: row.id, lastUsedAt: { at: row.lastUsedAt?.getTime() ?? 0 }, expiresAt: row.expiresAt?.getTime() ?? null };
  keyCache().set(hash, entry);
  touch(entry.id, entry.lastUsedAt);
  return key;
}

/**
 * A key keeps working after its person leaves or changes role (agents run on it), but its
 * `admin` and `author` scopes go no further than what the person may do now: a removed or
 * demoted admin's admin key could otherwise invite them back as admin. `validate` stays. Keys
 * with no person (made from the command line) keep their scopes. Read on a cache miss; a role
 * change or a removal drops the cache (lib/members).
 */
async function scopesItsPersonHolds(tenantId: string, personId: string | null, scopes: ApiKeyScope[]): Promise<ApiKeyScope[]> {
  if (personId === null || scopes.every((scope) => scope === 'validate')) return scopes;
  const membership = await db().membership.findUnique({
    where: { tenantId_userId: { tenantId, userId: personId } },
    select: { role: true },
  });
  return scopesHeldBy(membership && isRole(membership.role) ? membership.role : null, scopes);
}

/** The scopes a key of a person with `role` (null: no longer a member) has; see above. */
function scopesHeldBy(role: Role | null, scopes: ApiKeyScope[]): ApiKeyScope[] {
  const held = scopes.filter(
    (scope) =>
      scope === 'validate' ||
      (role !== null && (scope === 'admin' ? can(role, 'manage_keys') : can(role, 'edit_contracts') && can(role, 'edit_policies'))),
  );
  // `admin` included validating: a key that had only it goes on validating.
  return scopes.includes('admin') && !held.includes('admin') && !held.includes('validate') ? ['validate', ...held] : held;
}

/**
 * Valid keys by hash, so the hot path does not read the database per call. Revocation drops
 * the entry here at once and on other instances at their next change poll (about a second).
 */
let cache:
  | ReturnType<typeof invalidatedCache<{ key: AuthenticatedKey; id: string; lastUsedAt: { at: number }; expiresAt: number | null }>>
  | undefined;
function keyCache() {
  cache ??= invalidatedCache('api_keys', { maxEntries: 10_000, ttlMs: 30_000 });
  return cache;
}

/** "Last used" is for people, so a minute's precision will do; it spares a write per call. */
function touch(id: string, lastUsed: { at: number }): void {
  const now = Date.now();
  if (now - lastUsed.at <= LAST_USED_PRECISION_MS) return;
  lastUsed.at = now;
  void db()
    .apiKey.update({ where: { id }, data: { lastUsedAt: new Date(now) } })
    .catch(() => undefined);
}
