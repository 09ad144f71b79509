import { describe, expect, it } from 'vitest';
import { invitationState } from './invitation-state';
import { createInvitationToken, hashInvitationToken, isWellFormedInvitationToken } from './invitation-token';

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
    const a = createInvitationToken();
    const b = createInvitationToken();
    expect(a.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(a.token).not.toBe(b.token);
    expect(a.tokenHash).toBe(hashInvitationToken(a.token));
    expect(a.tokenHash).toMatch(/^[0-9a-f]{64}$/);
    expect(isWellFormedInvitationToken(a.token)).toBe(true);
    expect(isWellFormedInvitationToken(`${a.token}x`)).toBe(false);
    expect(isWellFormedInvitationToken('../../etc/passwd')).toBe(false);
  });
});
