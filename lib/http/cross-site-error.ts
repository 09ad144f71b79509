import { AppError } from '../errors';
import { log } from '../log';
import { checkSameOrigin, crossSiteMessage } from './same-origin';

/** What the same-origin rule reads of a request, whichever server received it. */
export interface OriginHeaders {
  method: string;
  /** Absolute URL. */
  url: string;
  header(name: string): string | null;
}

/**
 * The `cross_site_request` error for an unsafe request from another origin (logged once here),
 * or null when it may go on. Shared by the API wrapper, the Better Auth route and the Next proxy;
 * `publicUrl` is TOOLGATE_PUBLIC_URL, passed in so the proxy need not load the settings module.
 */
export function crossSiteError(request: OriginHeaders, requestId: string, publicUrl: string | undefined): AppError | null {
  const origin = request.header('origin');
  const secFetchSite = request.header('sec-fetch-site');
  const verdict = checkSameOrigin({
    method: request.method,
    origin,
    secFetchSite,
    publicUrl,
    host: request.header('host'),
    requestUrl: request.url,
  });
  if (verdict.allowed) return null;
  log.warn('cross-site request refused', {
    method: request.method.slice(0, 20),
    path: new URL(request.url).pathname.slice(0, 200),
    origin: origin?.slice(0, 200) ?? null,
    sec_fetch_site: secFetchSite?.slice(0, 40) ?? null,
    reason: verdict.reason,
    request_id: requestId,
  });
  return new AppError('cross_site_request', crossSiteMessage(verdict), { reason: verdict.reason, expected_origin: verdict.expected });
}
