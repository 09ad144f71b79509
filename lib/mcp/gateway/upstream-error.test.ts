import { describe, expect, it } from 'vitest';
import { MAX_ERROR_TEXT, REDACTED, redactSecrets, secretForms, upstreamErrorText } from './upstream-error';

const basic = (user: string, password: string) => `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;

describe('upstreamErrorText', () => {
  it('redacts the header value and the forms an upstream echoes it in', () => {
    const forms = secretForms(['Bearer SUPERSECRET-123']);
    for (const echoed of [
      'Bearer SUPERSECRET-123',
      'no SUPERSECRET-123',
      'token=Bearer%20SUPERSECRET-123',
      `b64 ${Buffer.from('SUPERSECRET-123').toString('base64')}`,
      'lower supersecret-123',
    ]) {
      const text = upstreamErrorText(new Error(`Error POSTing to endpoint: ${echoed}`), forms);
      expect(text).toContain(REDACTED);
      expect(text.toLowerCase()).not.toContain('supersecret');
    }
    expect(upstreamErrorText(new Error('no Bearer SUPERSECRET-123 here'), forms)).toBe(`no ${REDACTED} here`);
  });

  it('redacts a Basic credential, decoded and its password', () => {
    const value = basic('svc', 'hunter2-pw');
    const forms = secretForms([value]);
    expect(redactSecrets(`a ${value.slice(6)} b svc:hunter2-pw c hunter2-pw`, forms)).toBe(`a ${REDACTED} b ${REDACTED} c ${REDACTED}`);
  });

  it('redacts a value JSON-escaped in a body', () => {
    const forms = secretForms(['k"e\\y-0001']);
    expect(redactSecrets(JSON.stringify({ error: 'no k"e\\y-0001' }), forms)).toBe(`{"error":"no ${REDACTED}"}`);
  });

  it('redacts before it cuts, folds whitespace, and bounds the text', () => {
    const forms = secretForms(['Bearer SUPERSECRET-123']);
    const cut = upstreamErrorText(new Error(`${'x'.repeat(MAX_ERROR_TEXT - 5)} SUPERSECRET-123 tail`), forms);
    expect(cut.length).toBeLessThanOrEqual(MAX_ERROR_TEXT);
    expect(cut).not.toContain('SUPER');
    expect(upstreamErrorText(new Error('a\n\n  b\tc'), forms)).toBe('a b c');
    expect(upstreamErrorText('plain', [])).toBe('plain');
  });

  it('does not blank out short derived forms, but always the value as set', () => {
    const forms = secretForms(['Bearer ab']);
    expect(redactSecrets('about Bearer ab', forms)).toBe(`about ${REDACTED}`);
  });
});
