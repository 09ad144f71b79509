'use server';

import { revalidatePath } from 'next/cache';
import { headers } from 'next/headers';
import { z } from 'zod';
import { AppError } from '@/lib/errors';
import { getSessionMember, type SessionMember } from '@/lib/auth/session';
import { can, type Permission } from '@/lib/tenants/roles';
import { SettingsPatchSchema } from '@/lib/tenants/settings-schema';
import { updateTenantSettings, type TenantSettings } from '@/lib/tenants/tenant-settings';
import { createWebhook } from '@/lib/webhooks/create-webhook';
import { deleteWebhook } from '@/lib/webhooks/delete-webhook';
import { NewWebhookSchema } from '@/lib/webhooks/webhook-url';

export type SaveSettingsState =
  { status: 'idle' } | { status: 'error'; message: string } | { status: 'saved'; settings: TenantSettings; at: number };
// The only place a webhook's signing secret is ever shown.
export type CreateWebhookState =
  { status: 'idle' } | { status: 'error'; message: string } | { status: 'created'; url: string; secret: string };
export type DeleteWebhookState = { status: 'idle' } | { status: 'error'; message: string } | { status: 'deleted' };

// Server Actions are public endpoints: hiding the form is not enough, so every call re-checks
// the session and the role (the same permissions as the API: settings `manage_members`,
// webhooks `manage_keys`; only admins have either).
async function authorize(permission: Permission, what: string): Promise<{ member: SessionMember } | { message: string }> {
  const member = await getSessionMember(await headers());
  if (!member) return { message: 'Your session has ended. Sign in again.' };
  if (!can(member.role, permission)) return { message: `Only admins can change ${what}; your role is ${member.role}.` };
  return { member };
}

const field = (form: FormData, name: string) => String(form.get(name) ?? '').trim();

/** `off` gives null; otherwise the named number field, which must be a whole number. */
function optionalNumber(form: FormData, mode: string, name: string): number | null | string {
  if (field(form, mode) !== 'custom') return null;
  const text = field(form, name);
  return /^\d{1,10}$/.test(text) ? Number(text) : text;
}

function firstProblem(error: z.ZodError): string {
  const issue = error.issues[0];
  const where =
    issue?.path[0] === 'sensitive_paths'
      ? 'Sensitive paths'
      : issue?.path[0] === 'argument_retention_days'
        ? 'Retention'
        : issue?.path[0] === 'approval_ttl_seconds'
          ? 'Approval expiry'
          : issue?.path[0] === 'duplicate_window_seconds'
            ? 'Duplicate window'
            : 'Settings';
  return `${where}: ${issue?.message ?? 'invalid value'}`;
}

export async function saveSettingsAction(_previous: SaveSettingsState, form: FormData): Promise<SaveSettingsState> {
  const auth = await authorize('manage_members', 'settings');
  if ('message' in auth) return { status: 'error', message: auth.message };
  const paths = field(form, 'sensitive_paths').slice(0, 64 * 1024);
  const parsed = SettingsPatchSchema.safeParse({
    argument_retention_days:
      field(form, 'retention') === 'keep'
        ? /^\d{1,10}$/.test(field(form, 'retention_days'))
          ? Number(field(form, 'retention_days'))
          : field(form, 'retention_days')
        : null,
    sensitive_paths:
      paths === ''
        ? []
        : paths
            .split(/\r?\n/)
            .map((p) => p.trim())
            .filter(Boolean),
    approval_ttl_seconds: optionalNumber(form, 'approval_ttl_mode', 'approval_ttl_seconds'),
    duplicate_window_seconds: optionalNumber(form, 'duplicate_window_mode', 'duplicate_window_seconds'),
  });
  if (!parsed.success) return { status: 'error', message: firstProblem(parsed.error) };
  let saved;
  try {
    saved = await updateTenantSettings({
      tenantId: auth.member.tenant.id,
      patch: parsed.data,
      actor: { kind: 'user', userId: auth.member.user.id },
    });
  } catch (error) {
    if (error instanceof AppError && error.status < 500) return { status: 'error', message: error.message };
    throw error;
  }
  const settings: TenantSettings = {
    argument_retention_days: saved.argument_retention_days,
    sensitive_paths: saved.sensitive_paths,
    approval_ttl_seconds: saved.approval_ttl_seconds,
    duplicate_window_seconds: saved.duplicate_window_seconds,
  };
  revalidatePath('/settings');
  return { status: 'saved', settings, at: Date.now() };
}

export async function createWebhookAction(_previous: CreateWebhookState, form: FormData): Promise<CreateWebhookState> {
  const auth = await authorize('manage_keys', 'webhooks');
  if ('message' in auth) return { status: 'error', message: auth.message };
  const parsed = NewWebhookSchema.safeParse({ url: field(form, 'url'), events: form.getAll('events').map(String) });
  if (!parsed.success)
    return {
      status: 'error',
      message: `${parsed.error.issues[0]?.path[0] === 'events' ? 'Events: choose at least one' : `URL: ${parsed.error.issues[0]?.message ?? 'invalid'}`}.`,
    };
  try {
    const created = await createWebhook({ tenantId: auth.member.tenant.id, url: parsed.data.url, events: parsed.data.events });
    revalidatePath('/settings');
    return { status: 'created', url: created.url, secret: created.secret };
  } catch (error) {
    // The same refusals as the API: private receivers (SSRF), too many webhooks.
    if (error instanceof AppError && error.status < 500) return { status: 'error', message: error.message };
    throw error;
  }
}

export async function deleteWebhookAction(_previous: DeleteWebhookState, form: FormData): Promise<DeleteWebhookState> {
  const auth = await authorize('manage_keys', 'webhooks');
  if ('message' in auth) return { status: 'error', message: auth.message };
  try {
    await deleteWebhook({ tenantId: auth.member.tenant.id, id: field(form, 'id') });
  } catch (error) {
    if (error instanceof AppError && error.status === 404) return { status: 'error', message: 'That webhook no longer exists.' };
    throw error;
  }
  revalidatePath('/settings');
  return { status: 'deleted' };
}
