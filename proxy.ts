import { NextResponse, type NextRequest } from 'next/server';
import { crossSiteError } from './lib/http/cross-site-error';
import { isSafeMethod } from './lib/http/same-origin';

/**
 * The same-origin rule in front of every page Next serves (docs/security.md). API routes and
 * Better Auth check it themselves; this is what covers server actions (a POST with a
 * `Next-Action` header to any page) and any other unsafe request carrying the session cookie.
 * Next's own server-action check lets a request without an Origin through; this one does not.
 */
export function proxy(request: NextRequest): NextResponse {
  if (isSafeMethod(request.method)) return NextResponse.next();
  const action = request.headers.has('next-action');
  // A Bearer key cannot be attached by another site's page (it would need a CORS preflight,
  // which nothing here grants), so only cookie requests are at risk; server actions read only
  // the cookie, so they are checked whatever else they carry.
  if (!action && (request.headers.has('authorization') || !carriesSession(request))) return NextResponse.next();
  const requestId = crypto.randomUUID();
  // Read directly: start-up has already validated every setting (lib/env.ts), and loading the
  // settings module here would pull its file-system code into the proxy bundle.
  const publicUrl = process.env.TOOLGATE_PUBLIC_URL || undefined;
  const error = crossSiteError(
    { method: request.method, url: request.url, header: (name) => request.headers.get(name) },
    requestId,
    publicUrl,
  );
  if (!error) return NextResponse.next();
  return NextResponse.json(
    { error: { code: error.code, message: error.message, details: error.details }, request_id: requestId },
    { status: error.status, headers: { 'cache-control': 'no-store', 'x-request-id': requestId } },
  );
}

/** Better Auth's session cookie, plain or `__Secure-` prefixed. */
function carriesSession(request: NextRequest): boolean {
  return request.cookies.getAll().some((cookie) => cookie.name.endsWith('better-auth.session_token'));
}

export const config = {
  // Static build output never changes state. API routes check the rule themselves (every route
  // file mounts defineRoute handlers through mountRoute, and the Better Auth route calls
  // crossSiteRefusal), and running the proxy on them doubled the CPU of a validation served by
  // Next (bench/validate: 683 -> 1,321 us per request). Pages remain: server actions post to the
  // page they are used on.
  matcher: ['/((?!api/|_next/static|_next/image|favicon.ico).*)'],
};
