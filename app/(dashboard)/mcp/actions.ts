'use server';

import { revalidatePath } from 'next/cache';
import { AppError } from '@/lib/errors';
import type { Permission } from '@/lib/tenants/roles';
import { deleteMcpServer, registerMcpServer, updateMcpServer } from '@/lib/mcp/servers/register-mcp-server';
import { acceptMcpDrift } from '@/lib/mcp/tools/accept-mcp-drift';
import { parseNewServerForm, parseServerChangesForm } from '@/components/mcp/server-form';
import { authorizeAction } from '../authorize-action';

export type RegisterMcpServerState =
  { status: 'idle' } | { status: 'error'; message: string } | { status: 'registered'; name: string; at: number };
export type UpdateMcpServerState = { status: 'idle' } | { status: 'error'; message: string } | { status: 'saved'; at: number };
export type DeleteMcpServerState = { status: 'idle' } | { status: 'error'; message: string } | { status: 'deleted' };
export type AcceptMcpDriftState = { status: 'idle' } | { status: 'error'; message: string } | { status: 'accepted'; pinnedHash: string };

// The same permissions as the API: servers `manage_keys`, drift `edit_contracts`.
const authorize = (form: FormData, permission: Permission, what: string) =>
  authorizeAction(form, permission, (role) => `Your role (${role}) cannot ${what}.`);

const field = (form: FormData, name: string) => String(form.get(name) ?? '').slice(0, 200);

/** A refusal the person can act on (private address, name taken, gone meanwhile), or rethrown for the error page. */
function refusal(error: unknown): { status: 'error'; message: string } {
  if (error instanceof AppError && error.status < 500) return { status: 'error', message: error.message };
  throw error;
}

export async function registerMcpServerAction(_previous: RegisterMcpServerState, form: FormData): Promise<RegisterMcpServerState> {
  const auth = await authorize(form, 'manage_keys', 'register MCP servers; ask an admin');
  if ('message' in auth) return { status: 'error', message: auth.message };
  const parsed = parseNewServerForm(form);
  if (!parsed.ok) return { status: 'error', message: parsed.message };
  try {
    await registerMcpServer({ tenantId: auth.member.tenant.id, input: parsed.value });
  } catch (error) {
    return refusal(error);
  }
  revalidatePath('/mcp');
  return { status: 'registered', name: parsed.value.name, at: Date.now() };
}

export async function updateMcpServerAction(_previous: UpdateMcpServerState, form: FormData): Promise<UpdateMcpServerState> {
  const auth = await authorize(form, 'manage_keys', "change an MCP server's settings; ask an admin");
  if ('message' in auth) return { status: 'error', message: auth.message };
  const transport = field(form, 'transport') === 'stdio' ? 'stdio' : 'http';
  const parsed = parseServerChangesForm(form, transport);
  if (!parsed.ok) return { status: 'error', message: parsed.message };
  try {
    await updateMcpServer({ tenantId: auth.member.tenant.id, name: field(form, 'name'), changes: parsed.value });
  } catch (error) {
    return refusal(error);
  }
  revalidatePath('/mcp');
  return { status: 'saved', at: Date.now() };
}

export async function deleteMcpServerAction(_previous: DeleteMcpServerState, form: FormData): Promise<DeleteMcpServerState> {
  const auth = await authorize(form, 'manage_keys', 'delete MCP servers; ask an admin');
  if ('message' in auth) return { status: 'error', message: auth.message };
  try {
    await deleteMcpServer({ tenantId: auth.member.tenant.id, name: field(form, 'name') });
  } catch (error) {
    if (error instanceof AppError && error.status === 404) return { status: 'error', message: 'That MCP server no longer exists.' };
    throw error;
  }
  revalidatePath('/mcp');
  return { status: 'deleted' };
}

/** Pins exactly the definition the author reviewed: `hash` is the one the page showed. */
export async function acceptMcpDriftAction(_previous: AcceptMcpDriftState, form: FormData): Promise<AcceptMcpDriftState> {
  const auth = await authorize(form, 'edit_contracts', 'accept tool definition changes; authors and admins can');
  if ('message' in auth) return { status: 'error', message: auth.message };
  try {
    const accepted = await acceptMcpDrift({
      tenantId: auth.member.tenant.id,
      server: field(form, 'server'),
      tool: field(form, 'tool'),
      hash: field(form, 'hash'),
      userId: auth.member.user.id,
      apiKeyId: null,
    });
    // No revalidatePath: it would re-render the drift page, now without a drift, in place of the
    // confirmation. The MCP page is dynamic and is read afresh when opened.
    return { status: 'accepted', pinnedHash: accepted.pinned_hash };
  } catch (error) {
    return refusal(error);
  }
}
