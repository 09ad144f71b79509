import { z } from 'zod';
import { McpServerNameSchema } from '../../validation/call-context';
import { httpUrlWithoutCredentials } from '../../webhooks/webhook-url';

const McpUrl = httpUrlWithoutCredentials('send them as the auth header, which is stored encrypted');

const TRANSPORT_HEADERS = new Set([
  'host',
  'content-length',
  'content-type',
  'transfer-encoding',
  'connection',
  'keep-alive',
  'upgrade',
  'te',
  'trailer',
  'proxy-connection',
  'expect',
  'accept',
  'mcp-session-id',
  'mcp-protocol-version',
  'last-event-id',
]);

/** Header names as RFC 9110 tokens; the value may not carry a line break (no header injection). */
const AuthHeaderSchema = z
  .object({
    name: z
      .string()
      .min(1)
      .max(100)
      .regex(/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/, 'must be an HTTP header name')
      // Headers the connection or the MCP transport itself sets: `Transfer-Encoding: chunked`
      // as an auth header broke every request to the upstream.
      .refine((name) => !TRANSPORT_HEADERS.has(name.toLowerCase()), 'names a header the connection or MCP itself sets; use another'),
    value: z
      .string()
      .min(1)
      .max(8192)
      .regex(/^[^\r\n\0]*$/, 'must not contain line breaks or NUL')
      // What an HTTP field value carries (RFC 9110 5.5: tab, space, visible ASCII, obs-text). The
      // value is stored encrypted as UTF-8: a lone surrogate came back as U+FFFD, and a character
      // past U+00FF was stored but cannot be sent (Node refuses it in a header), so every call failed.
      .regex(/^[\t\x20-\x7e\x80-\xff]*$/, 'must hold only what an HTTP header carries: tab, space, printable ASCII or Latin-1'),
  })
  .strict()
  .describe(
    'A header sent with every request to the upstream, e.g. {"name": "Authorization", "value": "Bearer ..."}; stored encrypted, never shown again.',
  );

const settings = {
  list_unpublished: z.boolean().describe('List tools whose contract is not published yet (every call of them is refused). Default false.'),
  auto_accept_cosmetic: z
    .boolean()
    .describe('Accept a changed tool definition without review when only its wording changed (cosmetic drift). Default false.'),
  approval_wait_seconds: z
    .number()
    .int()
    .min(0)
    .max(300)
    .describe('How long tools/call waits for an approval before answering that the call awaits it. Default 30.'),
};

/** POST /api/v1/mcp-servers: a hosted (Streamable HTTP) upstream. */
export const NewMcpServerSchema = z
  .object({
    name: McpServerNameSchema.describe("The first segment of its tools' contract ids, and the path agents connect to: /api/v1/mcp/{name}."),
    url: McpUrl.describe("The upstream's Streamable HTTP endpoint: an http(s) URL without credentials."),
    auth_header: AuthHeaderSchema.optional(),
    list_unpublished: settings.list_unpublished.optional(),
    auto_accept_cosmetic: settings.auto_accept_cosmetic.optional(),
    approval_wait_seconds: settings.approval_wait_seconds.optional(),
  })
  .strict();
export type NewMcpServer = z.infer<typeof NewMcpServerSchema>;

/** PATCH /api/v1/mcp-servers/{server}: any subset; `auth_header: null` removes it. */
export const McpServerChangesSchema = z
  .object({
    url: McpUrl.optional(),
    auth_header: AuthHeaderSchema.nullable().optional(),
    list_unpublished: settings.list_unpublished.optional(),
    auto_accept_cosmetic: settings.auto_accept_cosmetic.optional(),
    approval_wait_seconds: settings.approval_wait_seconds.optional(),
  })
  .strict();
export type McpServerChanges = z.infer<typeof McpServerChangesSchema>;
