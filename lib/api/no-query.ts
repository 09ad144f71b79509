import { z } from 'zod';

/**
 * The query of a route that reads none. Strict, as the list routes' queries are: a parameter
 * the route does not read (a misspelt filter, `?tol=` for `?tool=`) is a 400 naming it, not an
 * answer that quietly ignored it. The page tenant of a dashboard download link (`?tenant_id=`)
 * is no route's parameter: define-route reads it for the session and drops it before the schema.
 */
export const NO_QUERY = z.object({}).strict();
