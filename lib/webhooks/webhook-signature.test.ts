import { describe, expect, it } from 'vitest';
import { deriveWebhookSecret, signWebhookBody, verifyWebhookSignature } from './webhook-signature';
import { retryDelayMs } from './retry-delay';

const secret = deriveWebhookSecret('instance-secret-0123456789-0123456789', 'wh_1');
const body = JSON.stringify({ event: 'approval.pending', data: { approval: { id: 'a1' } } });
const now = 1_800_000_000;

describe('webhook signatures', () => {
  it('derives a distinct secret per webhook and per instance secret', () => {
    expect(secret).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
    expect(deriveWebhookSecret('instance-secret-0123456789-0123456789', 'wh_2')).not.toBe(secret);
    expect(deriveWebhookSecret('another-instance-secret-0123456789012', 'wh_1')).not.toBe(secret);
  });

  it('verifies its own signature, Stripe-style over `${t}.${body}`', () => {
    const header = signWebhookBody(secret, body, now);
    expect(header).toMatch(/^t=1800000000,v1=[0-9a-f]{64}$/);
    expect(verifyWebhookSignature({ secret, header, body, now })).toBe(true);
  });

  it('refuses another body, another secret, a stale or future timestamp, and malformed headers', () => {
    const header = signWebhookBody(secret, body, now);
    expect(verifyWebhookSignature({ secret, header, body: `${body} `, now })).toBe(false);
    expect(verifyWebhookSignature({ secret: deriveWebhookSecret('x'.repeat(40), 'wh_1'), header, body, now })).toBe(false);
    expect(verifyWebhookSignature({ secret, header, body, now: now + 301 })).toBe(false);
    expect(verifyWebhookSignature({ secret, header, body, now: now - 301 })).toBe(false);
    expect(verifyWebhookSignature({ secret, header, body, now: now + 299 })).toBe(true);
    expect(verifyWebhookSignature({ secret, header: header.replace(/t=\d+/, `t=${now + 1}`), body, now })).toBe(false);
    expect(verifyWebhookSignature({ secret, header: null, body, now })).toBe(false);
    expect(verifyWebhookSignature({ secret, header: 'v1=abc', body, now })).toBe(false);
  });

  it('accepts any one of several v1 signatures (secret rotation)', () => {
    const good = signWebhookBody(secret, body, now);
    const v1 = good.split(',v1=')[1];
    expect(verifyWebhookSignature({ secret, header: `t=${now},v1=${'0'.repeat(64)},v1=${v1}`, body, now })).toBe(true);
  });
});

describe('webhook retry backoff', () => {
  it('doubles from 10 s and caps at one hour, with at most 10% jitter', () => {
    expect([1, 2, 3, 4].map((n) => retryDelayMs(n, () => 0))).toEqual([10_000, 20_000, 40_000, 80_000]);
    expect(retryDelayMs(20, () => 0)).toBe(3_600_000);
    expect(retryDelayMs(1, () => 0.999)).toBeLessThanOrEqual(11_000);
  });
});
