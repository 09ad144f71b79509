import { describe, expect, it } from 'vitest';
import { invitationState } from './invitation-state';
import { createLinkToken, hashLinkToken, isWellFormedLinkToken } from './link-token';

const now = new Date('2026-11-23T12:00:00Z');
const later = new Date('2026-11-24T12:00:00Z');

describe('invitationState', () => {
  it('is pending until used, revoked or past its expiry; use wins over the rest', () => {
    expect(invitationState({ acceptedAt: null, revokedAt: null, expiresAt: later }, now)).toBe('pending');
    expect(invitationState({ acceptedAt: null, revokedAt: null, expiresAt: now }, now)).toBe('expired');
    expect(invitationState({ acceptedAt: null, revokedAt: now, expiresAt: later }, now)).toBe('revoked');
    expect(invitationState({ acceptedAt: now, revokedAt: now, expiresAt: new Date(0) }, now)).toBe('used');
  });
});

describe('invitation tokens', () => {
  it('are 32 random bytes in base64url, stored as their SHA-256', () => {
    const a = createLinkToken();
    const b = createLinkToken();
    expect(a.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(a.token).not.toBe(b.token);
    expect(a.tokenHash).toBe(hashLinkToken(a.token));
    expect(a.tokenHash).toMatch(/^[0-9a-f]{64}$/);
    expect(isWellFormedLinkToken(a.token)).toBe(true);
    expect(isWellFormedLinkToken(`${a.token}x`)).toBe(false);
    expect(isWellFormedLinkToken('../../etc/passwd')).toBe(false);
  });
});
