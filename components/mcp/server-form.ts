import type { z } from 'zod';
import { McpServerChangesSchema, NewMcpServerSchema, type McpServerChanges, type NewMcpServer } from '@/lib/mcp/servers/mcp-server-input';

/**
 * The MCP page's register and settings forms, read into the same Zod inputs as the API
 * (lib/mcp/servers/mcp-server-input.ts), with messages that name the field a person filled in.
 * Pure, so the server actions stay thin and this is tested without a browser.
 */

export interface FormLike {
  get(name: string): FormDataEntryValue | null;
}

export type Parsed<T> = { ok: true; value: T } | { ok: false; message: string };

/** Longest text read from any field: above every schema's own bound, so the schema reports it. */
const MAX_FIELD = 10_000;

const field = (form: FormLike, name: string) =>
  String(form.get(name) ?? '')
    .slice(0, MAX_FIELD)
    .trim();
const checked = (form: FormLike, name: string) => form.get(name) === 'on';

const LABELS: Record<string, string> = {
  name: 'Name',
  url: 'URL',
  auth_header: 'Auth header',
  list_unpublished: 'List unpublished tools',
  auto_accept_cosmetic: 'Auto-accept cosmetic changes',
  approval_wait_seconds: 'Approval wait',
};

function firstProblem(error: z.ZodError): string {
  const issue = error.issues[0];
  const key = typeof issue?.path[0] === 'string' ? issue.path[0] : '';
  const detail = issue?.path[0] === 'auth_header' && typeof issue.path[1] === 'string' ? ` ${issue.path[1]}` : '';
  return `${LABELS[key] ?? 'Server'}${detail}: ${issue?.message ?? 'invalid value'}`;
}

const WAIT_PROBLEM = 'Approval wait: a whole number of seconds from 0 to 300.';

/** Blank means the default (30 s); anything else must be a whole number the schema then bounds. */
function waitSeconds(form: FormLike): number | undefined | null {
  const text = field(form, 'approval_wait_seconds');
  if (text === '') return undefined;
  return /^\d{1,4}$/.test(text) ? Number(text) : null;
}

/** Both halves of the header or neither: a name without a value would store nothing useful. */
function authHeader(form: FormLike): { name: string; value: string } | undefined | null {
  const name = field(form, 'auth_header_name');
  const value = field(form, 'auth_header_value');
  if (name === '' && value === '') return undefined;
  if (name === '' || value === '') return null;
  return { name, value };
}

const HEADER_PROBLEM = 'Auth header: give both its name and its value, or leave both empty.';

/** The shared URL schema's own words are about webhooks; an upstream's credentials go in the header. */
function credentialsProblem(url: string): string | null {
  if (!URL.canParse(url)) return null;
  const parsed = new URL(url);
  return parsed.username !== '' || parsed.password !== ''
    ? 'URL: must not carry credentials; give them as the auth header, which is stored encrypted.'
    : null;
}

export function parseNewServerForm(form: FormLike): Parsed<NewMcpServer> {
  const wait = waitSeconds(form);
  if (wait === null) return { ok: false, message: WAIT_PROBLEM };
  const header = authHeader(form);
  if (header === null) return { ok: false, message: HEADER_PROBLEM };
  const credentials = credentialsProblem(field(form, 'url'));
  if (credentials) return { ok: false, message: credentials };
  const parsed = NewMcpServerSchema.safeParse({
    name: field(form, 'name'),
    url: field(form, 'url'),
    ...(header ? { auth_header: header } : {}),
    list_unpublished: checked(form, 'list_unpublished'),
    auto_accept_cosmetic: checked(form, 'auto_accept_cosmetic'),
    ...(wait === undefined ? {} : { approval_wait_seconds: wait }),
  });
  return parsed.success ? { ok: true, value: parsed.data } : { ok: false, message: firstProblem(parsed.error) };
}

export const AUTH_HEADER_MODES = ['keep', 'replace', 'remove'] as const;

/**
 * The settings form sends every setting it shows (an unticked box is false). A stdio server's
 * form has no URL or auth header: the proxy runs on the agent's machine, so those are not
 * Toolgate's to change.
 */
export function parseServerChangesForm(form: FormLike, transport: 'http' | 'stdio'): Parsed<McpServerChanges> {
  const wait = waitSeconds(form);
  if (wait === null || wait === undefined) return { ok: false, message: WAIT_PROBLEM };
  const changes: Record<string, unknown> = {
    list_unpublished: checked(form, 'list_unpublished'),
    auto_accept_cosmetic: checked(form, 'auto_accept_cosmetic'),
    approval_wait_seconds: wait,
  };
  if (transport === 'http') {
    const url = field(form, 'url');
    const credentials = credentialsProblem(url);
    if (credentials) return { ok: false, message: credentials };
    changes.url = url;
    const mode = field(form, 'auth_header_mode');
    if (mode === 'remove') changes.auth_header = null;
    else if (mode === 'replace') {
      const header = authHeader(form);
      if (!header) return { ok: false, message: 'Auth header: give the new header its name and its value.' };
      changes.auth_header = header;
    } else if (mode !== 'keep') return { ok: false, message: 'Auth header: choose keep, replace or remove.' };
  }
  const parsed = McpServerChangesSchema.safeParse(changes);
  return parsed.success ? { ok: true, value: parsed.data } : { ok: false, message: firstProblem(parsed.error) };
}
