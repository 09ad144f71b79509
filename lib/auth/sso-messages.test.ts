import { describe, expect, it } from 'vitest';
import { ssoErrorMessage } from './sso-messages';

describe('ssoErrorMessage', () => {
  it('is null without a code', () => {
    expect(ssoErrorMessage(undefined)).toBeNull();
    expect(ssoErrorMessage('')).toBeNull();
  });

  it('explains the refusal of an uninvited person: whom to ask, and that the exact address must be invited', () => {
    const message = ssoErrorMessage('sso_not_invited');
    expect(message?.refusal).toBe(true);
    expect(message?.title).toBe('Your email address has no invitation');
    expect(message?.message).toContain('administrator of your Toolgate tenant');
    expect(message?.message).toContain('this exact email address');
  });

  it('has a message for the errors of the OAuth callback and the provider', () => {
    expect(ssoErrorMessage('state_mismatch')).toMatchObject({ refusal: false, title: 'The sign-in expired or was started elsewhere' });
    expect(ssoErrorMessage('oauth_provider_not_found')?.title).toBe('Single sign-on is not available right now');
    expect(ssoErrorMessage('access_denied')?.title).toBe('Sign-in cancelled');
  });

  it('names an unknown code only when it is a plain code, and never echoes markup or prototype names as known', () => {
    expect(ssoErrorMessage('temporarily_unavailable')?.message).toContain('(temporarily_unavailable)');
    const odd = ssoErrorMessage('<img src=x onerror=alert(1)>');
    expect(odd?.message).not.toContain('<img');
    expect(ssoErrorMessage('constructor')?.title).toBe('Single sign-on could not be completed');
  });
});
