import { describe, expect, it } from 'vitest';
import { SERVER_UNAVAILABLE, signInErrorMessage, TOO_MANY_ATTEMPTS } from './sign-in-messages';

describe('signInErrorMessage', () => {
  it('says what went wrong for each answer a sign-in gets', () => {
    expect(signInErrorMessage({ status: 401, message: 'Invalid email or password' })).toBe('Wrong email or password.');
    expect(signInErrorMessage({ status: 401 }, 'Wrong password.')).toBe('Wrong password.');
    expect(signInErrorMessage({ status: 429 })).toBe(TOO_MANY_ATTEMPTS);
    // The database refused the write (a full disk): the answer is Toolgate's envelope, no message.
    expect(signInErrorMessage({ status: 503 })).toBe(SERVER_UNAVAILABLE);
    expect(signInErrorMessage({ status: 403, message: 'Email not verified' })).toBe('Email not verified');
    expect(signInErrorMessage({ status: 500 })).toBe('Sign-in failed. Try again.');
  });
});
