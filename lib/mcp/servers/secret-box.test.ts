import { describe, expect, it } from 'vitest';
import { openSecret, sealSecret } from './secret-box';

const SECRET = 'x'.repeat(40);

describe('secret box', () => {
  it('opens what it sealed, and the sealed text does not contain the secret', () => {
    const sealed = sealSecret(SECRET, 'Bearer upstream-token-123', 'tenant-a/mcp:github');
    expect(sealed).not.toContain('upstream-token-123');
    expect(openSecret(SECRET, sealed, 'tenant-a/mcp:github')).toBe('Bearer upstream-token-123');
  });

  it('refuses another instance secret, another row, and any altered byte', () => {
    const sealed = sealSecret(SECRET, 'token', 'tenant-a/mcp:github');
    expect(openSecret('y'.repeat(40), sealed, 'tenant-a/mcp:github')).toBeNull();
    expect(openSecret(SECRET, sealed, 'tenant-b/mcp:github')).toBeNull();
    const parts = sealed.split('.');
    const body = Buffer.from(parts[3] as string, 'base64url');
    body[0] = (body[0] as number) ^ 1;
    expect(openSecret(SECRET, [parts[0], parts[1], parts[2], body.toString('base64url')].join('.'), 'tenant-a/mcp:github')).toBeNull();
    expect(openSecret(SECRET, 'garbage', 'tenant-a/mcp:github')).toBeNull();
    expect(openSecret(SECRET, 'v1...', 'tenant-a/mcp:github')).toBeNull();
  });

  it('seals the same value differently each time (fresh IV)', () => {
    expect(sealSecret(SECRET, 'same', 'a')).not.toBe(sealSecret(SECRET, 'same', 'a'));
  });
});
