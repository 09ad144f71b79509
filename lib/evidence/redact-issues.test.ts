import { describe, expect, it } from 'vitest';
import { issuePathSegments, redactIssueValues, touchesSensitivePath } from './redact-issues';

describe('redactIssueValues', () => {
  it('reads issue paths as the validator writes them', () => {
    expect(issuePathSegments('$')).toEqual([]);
    expect(issuePathSegments('$.card.last4')).toEqual(['card', 'last4']);
    expect(issuePathSegments("$.items[3]['a b'].x")).toEqual(['items', '3', 'a b', 'x']);
    expect(issuePathSegments('card')).toBeNull();
  });

  it('redacts the value quoted at a sensitive path, inside it and above it (which holds it), and nothing else', () => {
    const sensitive = ['card.last4'];
    expect(touchesSensitivePath('$.card.last4', sensitive)).toBe(true);
    expect(touchesSensitivePath('$.card', sensitive)).toBe(true);
    expect(touchesSensitivePath('$', sensitive)).toBe(true);
    expect(touchesSensitivePath('$.card.holder_name', sensitive)).toBe(false);
    expect(touchesSensitivePath('$.amount', sensitive)).toBe(false);
    expect(touchesSensitivePath('$[unreadable', sensitive)).toBe(true);
    const issues = [
      { path: '$.card', message: 'card must be object, got ["4111"]' },
      { path: '$.amount', message: 'amount must be <= 10, got 12' },
      {
        path: '$',
        message: 'Policy p rewrote the arguments into ones the contract refuses.',
        details: { issues: [{ path: '$.card.last4', message: 'card.last4 must match the pattern "^\\\\d{4}$", got "4111 1111"' }] },
      },
    ];
    redactIssueValues(issues, sensitive);
    expect(issues.map((i) => i.message)).toEqual([
      'card must be object, got [REDACTED]',
      'amount must be <= 10, got 12',
      'Policy p rewrote the arguments into ones the contract refuses.',
    ]);
    expect((issues[2]!.details!.issues as { message: string }[])[0]!.message).toMatch(/, got \[REDACTED\]$/);
  });
});
