import { afterEach, describe, expect, it, vi } from 'vitest';
import { log } from '../log';
import { noteSignInLimited, resetSignInLimitedLogForTests } from './sign-in-limited-log';

afterEach(() => {
  resetSignInLimitedLogForTests();
  vi.restoreAllMocks();
});

describe('noteSignInLimited', () => {
  it('logs a refused caller once a minute, with its address', () => {
    const warn = vi.spyOn(log, 'warn');
    const t0 = 1_000_000;
    expect(noteSignInLimited('203.0.113.7', '/api/auth/sign-in/email', t0)).toBe(true);
    expect(noteSignInLimited('203.0.113.7', '/api/auth/sign-in/email', t0 + 59_999)).toBe(false);
    expect(noteSignInLimited('198.51.100.2', '/api/auth/sign-in/email', t0 + 1)).toBe(true);
    expect(noteSignInLimited('203.0.113.7', '/api/auth/sign-in/email', t0 + 60_000)).toBe(true);
    expect(noteSignInLimited(null, '/api/auth/sign-in/email', t0)).toBe(true);
    expect(warn).toHaveBeenCalledTimes(4);
    expect(warn).toHaveBeenNthCalledWith(1, 'sign-in refused: too many attempts from one address', {
      client_address: '203.0.113.7',
      path: '/api/auth/sign-in/email',
    });
    expect(warn.mock.calls[3]?.[1]).toMatchObject({ client_address: 'unknown' });
  });

  it('remembers at most 10,000 addresses, forgetting the one logged longest ago', () => {
    vi.spyOn(log, 'warn').mockImplementation(() => undefined);
    const t0 = 5_000_000;
    for (let i = 0; i < 10_001; i++) noteSignInLimited(`10.0.${Math.floor(i / 256)}.${i % 256}`, '/api/auth/sign-in/email', t0);
    // The first was forgotten, so it is logged again within the minute; the last is still known.
    expect(noteSignInLimited('10.0.0.0', '/api/auth/sign-in/email', t0 + 1)).toBe(true);
    expect(noteSignInLimited('10.0.39.16', '/api/auth/sign-in/email', t0 + 1)).toBe(false);
  });
});
