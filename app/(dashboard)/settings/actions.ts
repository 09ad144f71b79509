'use server';

import { revalidatePath } from 'next/cache';
import { z } from 'zod';
import { AppError } from '@/lib/errors';
import type { Permission } from '@/lib/tenants/roles';
import {
  LOADED_SETTINGS_FIELD,
  parseLoadedSettings,
  SETTINGS_FIELDS,
  settingsChanges,
  SettingsPatchSchema,
  type SettingsField,
} from '@/lib/tenants/settings-schema';
import { updateTenantSettings, type TenantSettings } from '@/lib/tenants/tenant-settings';
import { createWebhook } from '@/lib/webhooks/create-webhook';
import { deleteWebhook } from '@/lib/webhooks/delete-webhook';
import { NewWebhookSchema } from '@/lib/webhooks/webhook-url';
import { authorizeAction } from '../authorize-action';

export type SaveSettingsState =
  | { status: 'idle' }
  | { status: 'error'; message: string }
  // `loaded`: the settings as the form now shows them (what it loaded, with what it saved),
  // which the next save is compared against.
  | { status: 'saved'; loaded: TenantSettings; at: number };
// The only place a webhook's signing secret is ever shown.
export type CreateWebhookState =
  { status: 'idle' } | { status: 'error'; message: string } | { status: 'created'; url: string; secret: string };
export type DeleteWebhookState = { status: 'idle' } | { status: 'error'; message: string } | { status: 'deleted' };

// The same permissions as the API: settings `manage_members`, webhooks `manage_keys`; only
// admins have either.
const authorize = (form: FormData, permission: Permission, what: string) =>
  authorizeAction(form, permission, (role) => `Only admins can change ${what}; your role is ${role}.`);

/** The settings page's name for each setting, for a refusal the admin reads. */
const LABELS: Record<SettingsField, string> = {
  argument_retention_days: 'Argument retention',
  sensitive_paths: 'Sensitive argument paths',
  approval_ttl_seconds: 'Default approval expiry',
  duplicate_window_seconds: 'Duplicate-call window',
};

function changedSinceLoaded(error: unknown): string | null {
  if (!(error instanceof AppError) || error.code !== 'conflict' || error.details?.reason !== 'changed_since_loaded') return null;
  const fields = Array.isArray(error.details.fields) ? (error.details.fields as SettingsField[]) : [];
  const names = fields.map((field) => LABELS[field] ?? field);
  const named = names.length === 0 ? 'A setting' : names.join(' and ');
  return `${named} ${names.length > 1 ? 'were' : 'was'} changed by someone else since you opened this page; reload to see it. Nothing was saved.`;
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
  const auth = await authorize(form, 'manage_members', 'settings');
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
  // Every field is in the form; parsed, each has a value.
  const submitted = parsed.data as TenantSettings;
  // Only what the person changed since the page loaded is sent, with the value they saw: a field
  // they left alone is never written back over someone else's newer one, and one they changed
  // that someone else changed meanwhile is refused. A form without the loaded values (from
  // before they were sent, or hand-made) sends all of it, as it always did.
  const loadedText = form.get(LOADED_SETTINGS_FIELD);
  const loaded = typeof loadedText === 'string' ? parseLoadedSettings(loadedText) : null;
  const change = loaded ? settingsChanges(loaded, submitted) : { patch: submitted, expected: undefined, fields: [...SETTINGS_FIELDS] };
  if (loaded && change.fields.length === 0) return { status: 'saved', loaded, at: Date.now() };
  let saved;
  try {
    saved = await updateTenantSettings({
      tenantId: auth.member.tenant.id,
      patch: change.patch,
      expected: change.expected,
      actor: { kind: 'user', userId: auth.member.user.id },
    });
  } catch (error) {
    const stale = changedSinceLoaded(error);
    if (stale) return { status: 'error', message: stale };
    if (error instanceof AppError && error.status < 500) return { status: 'error', message: error.message };
    throw error;
  }
  const shown = { ...(loaded ?? submitted), ...Object.fromEntries(change.fields.map((key) => [key, saved[key]])) } as TenantSettings;
  revalidatePath('/settings');
  return { status: 'saved', loaded: shown, at: Date.now() };
}

export async function createWebhookAction(_previous: CreateWebhookState, form: FormData): Promise<CreateWebhookState> {
  const auth = await authorize(form, 'manage_keys', 'webhooks');
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
  const auth = await authorize(form, 'manage_keys', 'webhooks');
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
