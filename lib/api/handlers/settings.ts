import { z } from 'zod';
import { defineRoute, type Caller } from '../define-route';
import { NO_QUERY } from '../no-query';
import { getTenantSettings, updateTenantSettings } from '../../tenants/tenant-settings';
import { SettingsPatchSchema } from '../../tenants/settings-schema';
import type { AdminActor } from '../../evidence/record-admin-evidence';

const SettingsViewSchema = z
  .object({
    argument_retention_days: z.number().int().nullable(),
    sensitive_paths: z.array(z.string()),
    approval_ttl_seconds: z.number().int().nullable(),
    duplicate_window_seconds: z.number().int().nullable(),
    instance_defaults: z.object({ approval_ttl_seconds: z.number().int(), duplicate_window_seconds: z.number().int() }).strict(),
  })
  .strict();

const actor = (caller: Caller): AdminActor =>
  caller.kind === 'session' ? { kind: 'user', userId: caller.userId } : { kind: 'api_key', apiKeyId: caller.apiKeyId };

/** GET /api/v1/settings — the tenant's settings; every member may read them, as the Settings page shows. */
export const getSettingsHandler = defineRoute({
  auth: { apiKey: 'admin', session: 'read' },
  query: NO_QUERY,
  response: SettingsViewSchema,
  handler: async ({ caller }) => ({ body: await getTenantSettings({ tenantId: caller.tenantId }) }),
});

/**
 * PATCH /api/v1/settings — change any of the settings (admins: `manage_members`, which only the
 * admin role has, or an `admin` key). Each change is a `settings` evidence record with the
 * values before and after; it applies to the next call on this instance, and within a change
 * poll (TOOLGATE_CACHE_POLL_MS) on the others.
 */
export const updateSettingsHandler = defineRoute({
  auth: { apiKey: 'admin', session: 'manage_members' },
  body: SettingsPatchSchema,
  response: SettingsViewSchema,
  handler: async ({ caller, body, requestId, firstRecordId }) => ({
    body: await updateTenantSettings({ tenantId: caller.tenantId, patch: body, actor: actor(caller), requestId, firstRecordId }),
  }),
});
