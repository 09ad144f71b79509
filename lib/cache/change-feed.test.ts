import { describe, expect, it } from 'vitest';
import { invalidatedCache, notifyLocalChange } from './change-feed';

describe('invalidatedCache', () => {
  it('drops its entries on a change, and never caches a value read before that change', () => {
    const cache = invalidatedCache<string>('surfaces', { maxEntries: 10, ttlMs: 60_000 });
    cache.set('a', 'v1');
    expect(cache.get('a')).toBe('v1');
    const readAt = cache.generation();
    notifyLocalChange('surfaces');
    expect(cache.get('a')).toBeUndefined();
    // A lookup that started before the change finishes after it: its value is stale.
    cache.set('a', 'stale', readAt);
    expect(cache.get('a')).toBeUndefined();
    cache.set('a', 'v2', cache.generation());
    expect(cache.get('a')).toBe('v2');
  });
});
