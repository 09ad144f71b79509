import { describe, expect, it } from 'vitest';
import { NotFoundError } from './errors';

describe('NotFoundError', () => {
  it('names the id it was given', () => {
    const error = new NotFoundError('verification run', 'run_123');
    expect(error.message).toBe('verification run "run_123" was not found');
    expect(error.details).toEqual({ resource: 'verification run', id: 'run_123' });
  });

  it('repeats at most 200 characters of an id as long as a URL may be', () => {
    const id = 'x'.repeat(16_000);
    const error = new NotFoundError('verification run', id);
    expect(error.details).toEqual({ resource: 'verification run', id: `${'x'.repeat(200)}…` });
    expect(error.message.length).toBeLessThan(260);
  });
});
