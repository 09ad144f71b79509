import { db, dbClosed, type Db, type Tx } from '../db';
import { countCacheLookup } from '../metrics/counters';
import { repeatedFailureLog } from '../repeated-failure-log';

const pollFailures = repeatedFailureLog('cache change poll failed');

/**
 * Cache invalidation across instances. A change that cached data depends on bumps its counter
 * in the same transaction (`bumpChange`), drops this instance's caches at once
 * (`notifyLocalChange`), and every other instance drops them when its next poll of the
 * counters sees the new version (TOOLGATE_CACHE_POLL_MS, default 1 s). Polling a handful of
 * rows works the same on SQLite and PostgreSQL.
 */
export type ChangeKey = 'contracts' | 'api_keys' | 'policies' | 'surfaces' | 'tenant_settings' | 'mcp_servers';

// On globalThis: the custom server and Next's bundle each load their own copy of lib/, in one
// process, and a change made through either must reach the caches of both at once.
const globalForFeed = globalThis as unknown as { toolgateChangeListeners?: Map<ChangeKey, Set<() => void>> };
const listeners = (globalForFeed.toolgateChangeListeners ??= new Map<ChangeKey, Set<() => void>>());
const seen = new Map<string, number>();
let timer: NodeJS.Timeout | undefined;
let polling = false;
let baselineDone = false;

export function onChange(key: ChangeKey, listener: () => void): void {
  let set = listeners.get(key);
  if (!set) listeners.set(key, (set = new Set()));
  set.add(listener);
}

export async function bumpChange(tx: Tx | Db, key: ChangeKey): Promise<void> {
  await tx.changeCounter.upsert({ where: { key }, create: { key, version: 1 }, update: { version: { increment: 1 } } });
}

export function notifyLocalChange(key: ChangeKey): void {
  for (const listener of listeners.get(key) ?? []) listener();
}

/** One poll: drop the caches whose counter moved since the last poll. Exported for tests. */
export async function pollChanges(): Promise<void> {
  // After disconnectDb, wait for the next user of the database to open it (the versions seen
  // are kept, so a change made meanwhile is still noticed then).
  if (polling || dbClosed()) return;
  polling = true;
  try {
    const rows = await db().changeCounter.findMany({ select: { key: true, version: true } });
    for (const row of rows) {
      const previous = seen.get(row.key);
      seen.set(row.key, row.version);
      // After the first poll, a counter that moved, or appeared (its first change ever), means
      // another instance changed something this one may have cached.
      if (baselineDone && previous !== row.version) notifyLocalChange(row.key as ChangeKey);
    }
    // Polling starts with a cache's first use, so a value may have been cached before the
    // versions it is compared against were read: drop everything cached so far, once.
    if (!baselineDone) for (const key of listeners.keys()) notifyLocalChange(key);
    baselineDone = true;
    pollFailures.succeeded('poll');
  } catch (error) {
    pollFailures.failed('poll', error);
  } finally {
    polling = false;
  }
}

/**
 * Started by a cache's first use, not when a module makes one: importing lib/ (`next build`
 * collecting page data, a CLI command) must not poll a database that may not exist yet.
 */
function startPolling(): void {
  if (timer || process.env.TOOLGATE_CACHE_POLL_MS === '0') return;
  // Checked at start (lib/env.ts, 0-60000); read here without it, and kept in that range anyway:
  // a timer past 2^31 ms fires at once, and 1e10 polled the database every millisecond.
  const every = Number(process.env.TOOLGATE_CACHE_POLL_MS ?? 1000);
  timer = setInterval(() => void pollChanges(), Number.isFinite(every) && every > 0 ? Math.min(every, 60_000) : 1000);
  timer.unref();
  void pollChanges();
}

/** Stops the poller and forgets what it saw (tests switch databases between files). */
export function resetChangeFeedForTests(): void {
  if (timer) clearInterval(timer);
  timer = undefined;
  seen.clear();
  baselineDone = false;
}

/**
 * A bounded map with a time-to-live, cleared whenever `key` changes anywhere. The TTL caps
 * staleness even if polling fails.
 */
export function invalidatedCache<V>(key: ChangeKey, options: { maxEntries: number; ttlMs: number }) {
  const entries = new Map<string, { value: V; expires: number }>();
  // Bumped on every change: a value read from the database before a change must not be cached
  // after it (see `generation` and `set`).
  let generation = 0;
  const loading = new Map<string, Promise<V>>();
  onChange(key, () => {
    entries.clear();
    generation++;
  });
  return {
    /** Take before reading what will be cached; pass to `set`. */
    generation(): number {
      startPolling();
      return generation;
    },
    get(k: string): V | undefined {
      startPolling();
      let hit = entries.get(k);
      if (hit && hit.expires < Date.now()) {
        entries.delete(k);
        hit = undefined;
      }
      countCacheLookup(key, hit !== undefined);
      return hit?.value;
    },
    /** Caches `value`, unless a change happened since `readAt` (a `generation()`). */
    set(k: string, value: V, readAt = generation): void {
      startPolling();
      if (readAt !== generation) return;
      if (entries.size >= options.maxEntries) entries.delete(entries.keys().next().value as string);
      entries.set(k, { value, expires: Date.now() + options.ttlMs });
    },
    clear(): void {
      entries.clear();
      generation++;
    },
    /**
     * The cached value, or `load`'s, cached. Concurrent misses of one key share one load (on a
     * cold cache every concurrent call would otherwise read, and compile, the same thing), and a
     * call that arrives after a change never joins a load that started before it.
     */
    load(k: string, load: () => Promise<V>): Promise<V> {
      const hit = this.get(k);
      if (hit !== undefined) return Promise.resolve(hit);
      const readAt = generation;
      const flightKey = `${readAt}\n${k}`;
      let pending = loading.get(flightKey);
      if (!pending) {
        pending = load()
          .then((value) => {
            this.set(k, value, readAt);
            return value;
          })
          .finally(() => loading.delete(flightKey));
        loading.set(flightKey, pending);
      }
      return pending;
    },
  };
}
