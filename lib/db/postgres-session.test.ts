import { describe, expect, it } from 'vitest';
import { postgresSessionOptions } from './postgres-session';

describe('postgresSessionOptions', () => {
  it('bounds statements by whole milliseconds, a bound under 1 ms by 1 ms (PostgreSQL reads 0 as none), and 0 as no bound', () => {
    expect(postgresSessionOptions(30_000)).toMatch(/-c statement_timeout=30000$/);
    expect(postgresSessionOptions(0.1)).toMatch(/-c statement_timeout=1$/);
    expect(postgresSessionOptions(0)).not.toContain('statement_timeout');
  });
});
