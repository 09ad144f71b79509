import 'server-only';

/**
 * The tenant a Server Action acted in, by request. A Server Action that revalidates a path
 * answers with the page rendered again, layout included, in the same request: that render must
 * show the tenant the action acted in (the one its form named), not the one the cookie names by
 * now, or saving a page opened for tenant A would turn the tab into tenant B's dashboard.
 *
 * Keyed by the request's headers object, which Next keeps for the whole request (the action and
 * the render after it); anything else (no action, another request) finds nothing, and the page
 * is rendered for the cookie's tenant as always.
 */
const actedIn = new WeakMap<Headers, string>();

export function rememberActionTenant(requestHeaders: Headers, tenantId: string): void {
  actedIn.set(requestHeaders, tenantId);
}

export function actionTenant(requestHeaders: Headers): string | undefined {
  return actedIn.get(requestHeaders);
}
