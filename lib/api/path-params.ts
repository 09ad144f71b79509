import { z } from 'zod';
import { NotFoundError } from '../errors';
import { SEMVER_PATTERN, TOOL_ID_PATTERN } from '../contracts/contract-schema';
import { DOCUMENT_NAME_PATTERN, MAX_DOCUMENT_NAME } from '../documents/document-kinds';

/**
 * What may stand in a route template's `{name}`. A value outside its schema names nothing that
 * can exist, so it gets the answer an unknown id gets from the service: 404 `not_found` with
 * the resource and the id (lib/errors.ts NotFoundError), never a 400 that would tell a caller
 * more about ids than a lookup does.
 */
interface PathParamMeta {
  /** The resource named in the 404, as the service names it. */
  resource: string;
  /** The id shown in the 404 when it is not the value itself (a version is `<id>@<version>`). */
  shownAs?: (params: Record<string, string>) => string;
}

const pathParams = z.registry<PathParamMeta>();

/** Row ids (cuids): the characters and length the data plane always accepted for approvals. */
const ROW_ID = /^[A-Za-z0-9_-]{1,64}$/;

/** The id of a database row: an approval, webhook, API key, member or invitation. */
export function rowIdParam(resource: string) {
  return z
    .string()
    .regex(ROW_ID)
    .describe(`The ${resource.toLowerCase().replace('_', ' ')}'s id.`)
    .register(pathParams, { resource });
}

/** A contract's id: the id of the tool it governs. */
export function contractIdParam() {
  return z
    .string()
    .max(128)
    .regex(TOOL_ID_PATTERN)
    .describe("The contract's id: the id of the tool it governs, e.g. `orders.lookup`.")
    .register(pathParams, { resource: 'contract' });
}

/** A policy's or tool surface's id. */
export function documentIdParam(resource: string) {
  return z
    .string()
    .max(MAX_DOCUMENT_NAME)
    .regex(DOCUMENT_NAME_PATTERN)
    .describe(`The ${resource}'s id.`)
    .register(pathParams, { resource });
}

/** A document version in a route beside the document's `{id}`. */
export function versionParam(resource: string) {
  return z
    .string()
    .max(64)
    .regex(SEMVER_PATTERN)
    .describe('A semantic version, e.g. `1.0.0`.')
    .register(pathParams, { resource: `${resource} version`, shownAs: (params) => `${params.id ?? ''}@${params.version ?? ''}` });
}

/** A trace id: 32 hex characters (lib/evidence/trace-id.ts), in either case, as the traces search reads them. */
export function traceIdParam() {
  return z
    .string()
    .regex(/^[0-9a-fA-F]{32}$/)
    .describe('The trace id: 32 hex characters.')
    .register(pathParams, { resource: 'trace' });
}

/** An MCP server's name (lib/mcp). */
export function mcpServerParam() {
  return z
    .string()
    .regex(/^[a-z][a-z0-9_]{0,39}$/)
    .describe("The MCP server's name, e.g. `github`.")
    .register(pathParams, { resource: 'MCP server' });
}

/** An upstream MCP tool's own name (URL-encoded in the path); never one with a NUL (lib/mcp/tool-definition.ts). */
export function mcpToolParam() {
  return z
    .string()
    .min(1)
    .max(128)
    .refine((name) => !name.includes('\0'))
    .describe("The upstream's name for the tool.")
    .register(pathParams, { resource: 'MCP tool' });
}

export type PathParamsSchema = z.ZodObject<Record<string, z.ZodType<string>>>;

/** The route's params, or the 404 for the first one that cannot name anything. */
export function parsePathParams<S extends PathParamsSchema>(schema: S, params: Record<string, string>): z.infer<S> {
  const parsed = schema.safeParse(params);
  if (parsed.success) return parsed.data;
  const name = String(parsed.error.issues[0]?.path[0] ?? '');
  const meta = pathParams.get(schema.shape[name] as z.ZodType);
  throw new NotFoundError(meta?.resource ?? name, meta?.shownAs ? meta.shownAs(params) : (params[name] ?? ''));
}
