import { createCipheriv, createDecipheriv, createHmac, randomBytes } from 'node:crypto';

/**
 * Secrets Toolgate must use again later (an upstream MCP server's auth header), so they are
 * encrypted rather than hashed: AES-256-GCM under a key derived from the instance secret, with
 * the tenant and the purpose as associated data, so a value copied to another row or tenant
 * does not decrypt. Rotating TOOLGATE_SECRET makes stored values unreadable (they must be
 * entered again), which is the point of rotating it.
 */
const VERSION = 'v1';

function key(instanceSecret: string): Buffer {
  return createHmac('sha256', instanceSecret).update('toolgate-secret-box\nv1').digest();
}

export function sealSecret(instanceSecret: string, plaintext: string, associated: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key(instanceSecret), iv);
  cipher.setAAD(Buffer.from(associated));
  const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return [VERSION, iv.toString('base64url'), cipher.getAuthTag().toString('base64url'), body.toString('base64url')].join('.');
}

/** The plaintext, or null when the value was sealed under another secret, for another row, or altered. */
export function openSecret(instanceSecret: string, sealed: string, associated: string): string | null {
  const [version, iv, tag, body] = sealed.split('.');
  if (version !== VERSION || !iv || !tag || body === undefined) return null;
  try {
    const decipher = createDecipheriv('aes-256-gcm', key(instanceSecret), Buffer.from(iv, 'base64url'));
    decipher.setAAD(Buffer.from(associated));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8');
  } catch {
    return null;
  }
}
