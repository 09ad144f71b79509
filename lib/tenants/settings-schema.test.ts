import { describe, expect, it } from 'vitest';
import { SettingsPatchSchema, sensitivePathProblem } from './settings-schema';

describe('sensitivePathProblem', () => {
  it('accepts dotted names of letters, digits, _ and -', () => {
    for (const path of ['card', 'card.holder_name', 'items.0.sku', 'x-api-key', 'A.b_C.d-9']) expect(sensitivePathProblem(path), path).toBeNull();
  });

  it('refuses prototype names, empty segments, other characters and oversize paths', () => {
    expect(sensitivePathProblem('__proto__')).toContain('reserved');
    expect(sensitivePathProblem('a.constructor')).toContain('reserved');
    expect(sensitivePathProblem('prototype.b')).toContain('reserved');
    for (const path of ['', 'a..b', '.a', 'a.', 'a b', 'a[0]', 'a/b', 'é', '$.a']) expect(sensitivePathProblem(path), path).not.toBeNull();
    expect(sensitivePathProblem(Array.from({ length: 17 }, () => 'a').join('.'))).toContain('segments');
    expect(sensitivePathProblem(`${'a'.repeat(64)}.`.repeat(4) + 'a')).toContain('256');
  });
});

describe('SettingsPatchSchema', () => {
  it('trims paths and drops duplicates, keeping the order', () => {
    expect(SettingsPatchSchema.parse({ sensitive_paths: [' b ', 'a', 'b'] })).toEqual({ sensitive_paths: ['b', 'a'] });
  });

  it('takes null as off or the instance default, and refuses an empty patch', () => {
    expect(SettingsPatchSchema.parse({ argument_retention_days: null, approval_ttl_seconds: null, duplicate_window_seconds: null })).toEqual({ argument_retention_days: null, approval_ttl_seconds: null, duplicate_window_seconds: null });
    expect(SettingsPatchSchema.safeParse({}).success).toBe(false);
  });
});
