/** Every method a Next route file can export. */
export const HTTP_METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'] as const;
export type HttpMethod = (typeof HTTP_METHODS)[number];

/** The methods a route declares; HEAD follows GET and OPTIONS is answered for every route. */
export type DeclaredMethod = Exclude<HttpMethod, 'HEAD' | 'OPTIONS'>;

/** What a route with these declared methods allows, in a fixed order. */
export function allowedMethods(declared: readonly string[]): HttpMethod[] {
  return HTTP_METHODS.filter(
    (method) => declared.includes(method) || (method === 'HEAD' && declared.includes('GET')) || method === 'OPTIONS',
  );
}
