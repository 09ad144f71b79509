import { timingSafeEqual } from 'node:crypto';
import { hasScope } from '../auth/api-key-scopes';
import { authenticateApiKey } from '../auth/api-keys';
import { sha256Hex } from '../contracts/canonical-json';
import { env } from '../env';
import { AppError } from '../errors';

/** What a scrape may see: the whole instance (the operator's metrics token) or one tenant (its admin key). */
export type MetricsScope = { kind: 'instance' } | { kind: 'tenant'; tenantId: string };

const BEARER = /^Bearer\s+(\S+)\s*$/i;

/**
 * Who is scraping, from the Authorization header alone. Cookies are never read: a page on another
 * site can make a signed-in browser send its cookies with a GET, but cannot attach a Bearer
 * header without a CORS preflight, which nothing here grants; so such a request is a 401.
 */
export async function authorizeScrape(authorization: string | null): Promise<MetricsScope> {
  const presented = authorization === null ? null : (BEARER.exec(authorization)?.[1] ?? null);
  if (presented === null) {
    throw new AppError(
      'unauthorized',
      'Send the metrics token (TOOLGATE_METRICS_TOKEN) or an admin API key as "Authorization: Bearer <token>".',
      undefined,
      {
        'www-authenticate': 'Bearer',
      },
    );
  }
  const token = env().TOOLGATE_METRICS_TOKEN;
  if (token !== undefined && sameSecret(presented, token)) return { kind: 'instance' };
  const key = await authenticateApiKey(presented);
  if (!key) {
    throw new AppError('unauthorized', 'The metrics token or API key is wrong, unknown or revoked.', undefined, {
      'www-authenticate': 'Bearer',
    });
  }
  if (!hasScope(key.scopes, 'admin')) {
    throw new AppError('forbidden', 'Metrics need the metrics token or an API key with the "admin" scope.', { required_scope: 'admin' });
  }
  return { kind: 'tenant', tenantId: key.tenantId };
}

/** Compared as SHA-256 digests, so the time taken says nothing of the token's length or content. */
function sameSecret(presented: string, expected: string): boolean {
  return timingSafeEqual(Buffer.from(sha256Hex(presented), 'hex'), Buffer.from(sha256Hex(expected), 'hex'));
}
