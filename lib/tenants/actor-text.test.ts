import { describe, expect, it } from 'vitest';
import { actorsIn, removedActorLabel, withActorLabels } from './actor-text';

describe('actors in stored texts', () => {
  const text = 'arguments edited by approver user:cmwt6thiq0000abcd and api_key:k_1 (not user:, nor xuser:abc)';

  it('finds each user and key id once', () => {
    expect(actorsIn(text)).toEqual(['user:cmwt6thiq0000abcd', 'api_key:k_1']);
    expect(actorsIn(`${text} user:cmwt6thiq0000abcd`)).toHaveLength(2);
    expect(actorsIn(null)).toEqual([]);
  });

  it('replaces them with their labels, and leaves unknown ones as they are', () => {
    const labels = new Map([['user:cmwt6thiq0000abcd', 'ann@example.com']]);
    expect(withActorLabels(text, labels)).toBe('arguments edited by approver ann@example.com and api_key:k_1 (not user:, nor xuser:abc)');
    expect(withActorLabels(text, { 'api_key:k_1': removedActorLabel('api_key:k_1') })).toContain('and api_key:k_1 (removed) (not');
  });
});
