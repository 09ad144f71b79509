import { describe, expect, it } from 'vitest';
import { deliveryErrorText } from './deliver-webhooks';

describe('deliveryErrorText', () => {
  it('never says what a receiver name resolved to: the address filter’s refusal, and addresses in other errors', () => {
    const refused = new Error('DNS lookup 127.0.0.1(family:4, host:vm) is not allowed. Because, It is private IP address.');
    expect(deliveryErrorText(refused)).toBe('Refused: the receiver is not at a public address.');
    expect(
      deliveryErrorText(new Error('DNS lookup 10.1.2.3(family:4, host:db.internal) is not allowed. Because, It is meta IP address.')),
    ).not.toMatch(/10\.1\.2\.3|db\.internal/);
    const reset = Object.assign(new Error('connect ECONNREFUSED 203.0.113.9:8443'), { name: 'Error' });
    expect(deliveryErrorText(reset)).toBe('Error: connect ECONNREFUSED <address>');
    expect(deliveryErrorText(new Error('connect ECONNREFUSED [fd00::1]:443'))).toBe('Error: connect ECONNREFUSED <address>:443');
    expect(deliveryErrorText(new Error('The operation was aborted due to timeout'))).toBe(
      'Error: The operation was aborted due to timeout',
    );
  });
});
