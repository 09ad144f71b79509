import { describe, expect, it } from 'vitest';
import { AppError } from '../errors';
import { normaliseEmail } from './member-email';

describe('normaliseEmail', () => {
  it('trims and lowercases, so one person is one address', () => {
    expect(normaliseEmail('  Ann.Lee@Example.COM\t')).toBe('ann.lee@example.com');
  });

  it('refuses what cannot receive mail: no address, and more than 254 characters', () => {
    for (const bad of ['', 'ann', 'ann@', '@example.com', 'ann lee@example.com', `${'a'.repeat(64)}@${'b'.repeat(186)}.com`]) {
      expect(() => normaliseEmail(bad), bad).toThrow(AppError);
    }
    const longest = `${'a'.repeat(64)}@${'b'.repeat(185)}.com`;
    expect(longest).toHaveLength(254);
    expect(normaliseEmail(longest)).toBe(longest);
  });
});
