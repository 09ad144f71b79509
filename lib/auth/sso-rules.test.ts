import { describe, expect, it } from 'vitest';
import { parseRoleMapping } from './sso-config';
import { isEmailDomainAllowed, isEmailVerifiedByProvider, isSsoRefusal, roleFromGroups, ssoRefusal } from './sso-rules';

describe('isEmailDomainAllowed', () => {
  it('allows any domain when the list is empty', () => {
    expect(isEmailDomainAllowed('a@anything.example', [])).toBe(true);
  });

  it('matches the domain exactly and case-insensitively, not subdomains or look-alikes', () => {
    const allowed = ['acme.com'];
    expect(isEmailDomainAllowed('Ann@ACME.com', allowed)).toBe(true);
    expect(isEmailDomainAllowed('ann@eu.acme.com', allowed)).toBe(false);
    expect(isEmailDomainAllowed('ann@acme.com.evil.example', allowed)).toBe(false);
    expect(isEmailDomainAllowed('ann@notacme.com', allowed)).toBe(false);
    // The last @ separates the domain: "acme.com"@evil.example is evil.example.
    expect(isEmailDomainAllowed('"x@acme.com"@evil.example', allowed)).toBe(false);
    expect(isEmailDomainAllowed('no-at-sign', allowed)).toBe(false);
  });
});

describe('isEmailVerifiedByProvider', () => {
  it('accepts email_verified as true or the string "true"', () => {
    expect(isEmailVerifiedByProvider({ email_verified: true })).toBe(true);
    expect(isEmailVerifiedByProvider({ email_verified: 'true' })).toBe(true);
    for (const value of [false, 'false', 'TRUE', 1, undefined, null, {}])
      expect(isEmailVerifiedByProvider({ email_verified: value }), String(value)).toBe(false);
  });

  it("accepts Entra ID's xms_edov the same way, and nothing else", () => {
    expect(isEmailVerifiedByProvider({ xms_edov: true })).toBe(true);
    expect(isEmailVerifiedByProvider({ xms_edov: false, email_verified: false })).toBe(false);
    expect(isEmailVerifiedByProvider({ verified: true, email_verified_at: '2026-01-01' })).toBe(false);
    expect(isEmailVerifiedByProvider({})).toBe(false);
  });
});

describe('ssoRefusal', () => {
  const invited = () => Promise.resolve(true);
  const uninvited = () => Promise.resolve(false);
  const base = { email: 'ann@acme.com', emailVerified: true, allowedDomains: ['acme.com'] };

  it('lets an invited, verified person in an allowed domain be created', async () => {
    expect(await ssoRefusal({ ...base, action: 'create-user', invited })).toBeNull();
  });

  it('refuses to create an uninvited person', async () => {
    expect(await ssoRefusal({ ...base, action: 'create-user', invited: uninvited })).toBe('sso_not_invited');
  });

  it('refuses an unverified email before asking about invitations', async () => {
    let asked = false;
    const result = await ssoRefusal({
      ...base,
      emailVerified: false,
      action: 'create-user',
      invited: () => {
        asked = true;
        return Promise.resolve(true);
      },
    });
    expect(result).toBe('sso_email_unverified');
    expect(asked).toBe(false);
  });

  it('refuses a domain that is not allowed, for every action', async () => {
    for (const action of ['create-user', 'link-account', 'sign-in'] as const) {
      expect(await ssoRefusal({ ...base, email: 'ann@other.example', action, invited }), action).toBe('sso_domain_not_allowed');
    }
  });

  it('links an existing user only for a verified email, without needing an invitation', async () => {
    expect(await ssoRefusal({ ...base, action: 'link-account', invited: uninvited })).toBeNull();
    expect(await ssoRefusal({ ...base, emailVerified: false, action: 'link-account', invited })).toBe('sso_email_unverified');
  });

  it('lets a person who signed in with SSO before sign in again in an allowed domain', async () => {
    expect(await ssoRefusal({ ...base, emailVerified: false, action: 'sign-in', invited: uninvited })).toBeNull();
  });
});

describe('isSsoRefusal', () => {
  it('knows its own codes and nothing else, not even Object.prototype members', () => {
    expect(isSsoRefusal('sso_not_invited')).toBe(true);
    expect(isSsoRefusal('state_mismatch')).toBe(false);
    expect(isSsoRefusal('constructor')).toBe(false);
  });
});

describe('roleFromGroups', () => {
  const mapping = parseRoleMapping('everyone=viewer,devs=author,reviewers=approver,toolgate-admins=admin');

  it('picks the highest mapped role: viewer < author < approver < admin', () => {
    expect(roleFromGroups(['everyone', 'reviewers', 'devs'], mapping)).toBe('approver');
    expect(roleFromGroups(['toolgate-admins', 'everyone'], mapping)).toBe('admin');
    expect(roleFromGroups(['everyone'], mapping)).toBe('viewer');
  });

  it('is null when no group is mapped or the claim is missing or malformed', () => {
    expect(roleFromGroups(['sales'], mapping)).toBeNull();
    expect(roleFromGroups([], mapping)).toBeNull();
    expect(roleFromGroups(undefined, mapping)).toBeNull();
    expect(roleFromGroups({ reviewers: true }, mapping)).toBeNull();
    expect(roleFromGroups([42, null, ['reviewers']], mapping)).toBeNull();
  });

  it('reads a single group sent as a string, and compares names exactly', () => {
    expect(roleFromGroups('devs', mapping)).toBe('author');
    expect(roleFromGroups(['Reviewers', 'reviewers '], mapping)).toBeNull();
  });

  it('does not treat Object.prototype member names as groups', () => {
    expect(roleFromGroups(['constructor', 'toString', '__proto__'], mapping)).toBeNull();
  });
});
