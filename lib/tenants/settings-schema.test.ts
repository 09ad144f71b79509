import { describe, expect, it } from 'vitest';
import { parseLoadedSettings, SettingsPatchSchema, sensitivePathProblem, settingsChanges } from './settings-schema';

describe('sensitivePathProblem', () => {
  it('accepts dotted names of letters, digits, _ and -', () => {
    for (const path of ['card', 'card.holder_name', 'items.0.sku', 'x-api-key', 'A.b_C.d-9'])
      expect(sensitivePathProblem(path), path).toBeNull();
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
    expect(
      SettingsPatchSchema.parse({ argument_retention_days: null, approval_ttl_seconds: null, duplicate_window_seconds: null }),
    ).toEqual({ argument_retention_days: null, approval_ttl_seconds: null, duplicate_window_seconds: null });
    expect(SettingsPatchSchema.safeParse({}).success).toBe(false);
  });
});

describe('SettingsPatchSchema numbers', () => {
  const problem = (patch: Record<string, unknown>) => {
    const parsed = SettingsPatchSchema.safeParse(patch);
    return parsed.success ? null : parsed.error.issues.map((issue) => issue.message);
  };

  it('says what is wanted however a number is missed, typed text from the settings page included', () => {
    for (const days of [-1, 0, 1.5, 3651, '-1', '1.5', '1e3', '99999999999', 'abc', '']) {
      expect(problem({ argument_retention_days: days }), String(days)).toEqual(['must be a whole number of days from 1 to 3650']);
    }
    expect(problem({ approval_ttl_seconds: '5' })).toEqual(['must be a whole number of seconds from 10 to 2592000']);
    expect(problem({ duplicate_window_seconds: 0 })).toEqual(['must be a whole number of seconds from 1 to 604800']);
    expect(problem({ argument_retention_days: 30, approval_ttl_seconds: null, duplicate_window_seconds: 60 })).toBeNull();
  });
});

describe('what a settings form changed since it loaded', () => {
  const loaded = { argument_retention_days: 30, sensitive_paths: ['a', 'b'], approval_ttl_seconds: null, duplicate_window_seconds: 60 };

  it('names only the fields that differ, with the values the page loaded', () => {
    expect(settingsChanges(loaded, { ...loaded, sensitive_paths: ['a'], approval_ttl_seconds: 90 })).toEqual({
      patch: { sensitive_paths: ['a'], approval_ttl_seconds: 90 },
      expected: { sensitive_paths: ['a', 'b'], approval_ttl_seconds: null },
      fields: ['sensitive_paths', 'approval_ttl_seconds'],
    });
    expect(settingsChanges(loaded, { ...loaded, sensitive_paths: ['a', 'b'] }).fields).toEqual([]);
    // Order counts: paths are kept in the order entered.
    expect(settingsChanges(loaded, { ...loaded, sensitive_paths: ['b', 'a'] }).fields).toEqual(['sensitive_paths']);
    expect(settingsChanges(loaded, { ...loaded, argument_retention_days: null }).patch).toEqual({ argument_retention_days: null });
  });

  it('reads the loaded settings back, or null for anything else', () => {
    expect(parseLoadedSettings(JSON.stringify(loaded))).toEqual(loaded);
    for (const text of [
      '',
      'nope',
      'null',
      '[]',
      '{}',
      JSON.stringify({ ...loaded, extra: 1 }),
      JSON.stringify({ ...loaded, sensitive_paths: [1] }),
    ])
      expect(parseLoadedSettings(text), text).toBeNull();
    expect(parseLoadedSettings(`${JSON.stringify(loaded)}${' '.repeat(300_000)}`)).toBeNull();
  });
});
