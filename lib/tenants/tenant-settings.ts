import { db } from '../db';
import { env } from '../env';
import { AppError, NotFoundError } from '../errors';
import { bumpChange, invalidatedCache, notifyLocalChange } from '../cache/change-feed';
import { recordAdminEvidence, type AdminActor } from '../evidence/record-admin-evidence';
import { SETTINGS_FIELDS, sameSetting, type SettingsField, type SettingsPatch, type TenantSettings } from './settings-schema';
import type { FirstRecordId } from '../evidence/first-record-id';

export type { SettingsPatch, TenantSettings } from './settings-schema';

/** The settings with the instance defaults filled in: what the runtime applies to each call. */
export interface RuntimeSettings {
  /** Argument retention on: evidence keeps redacted arguments, context and results. */
  storeRawArguments: boolean;
  retentionDays: number;
  /** The tenant's own sensitive paths; each call merges them with its contract's `sensitive`. */
  sensitivePaths: readonly string[];
  approvalTtlSeconds: number;
  duplicateWindowSeconds: number;
}

export interface SettingsView extends TenantSettings {
  /** What `null` in approval_ttl_seconds and duplicate_window_seconds means on this instance. */
  instance_defaults: { approval_ttl_seconds: number; duplicate_window_seconds: number };
}

type SettingsRow = {
  storeRawArguments: boolean;
  retentionDays: number;
  sensitivePaths: string;
  approvalTtlSeconds: number | null;
  duplicateWindowSeconds: number | null;
};

const SETTINGS_SELECT = {
  storeRawArguments: true,
  retentionDays: true,
  sensitivePaths: true,
  approvalTtlSeconds: true,
  duplicateWindowSeconds: true,
} as const;

/** The column holds a JSON array; anything else (hand-edited, older) reads as none. */
function parsePaths(text: string): string[] {
  try {
    const value: unknown = JSON.parse(text);
    return Array.isArray(value) ? value.filter((p): p is string => typeof p === 'string') : [];
  } catch {
    return [];
  }
}

function settingsOf(row: SettingsRow): TenantSettings {
  return {
    argument_retention_days: row.storeRawArguments ? row.retentionDays : null,
    sensitive_paths: parsePaths(row.sensitivePaths),
    approval_ttl_seconds: row.approvalTtlSeconds,
    duplicate_window_seconds: row.duplicateWindowSeconds,
  };
}

function instanceDefaults(): SettingsView['instance_defaults'] {
  const e = env();
  return { approval_ttl_seconds: e.TOOLGATE_APPROVAL_TTL_SECONDS, duplicate_window_seconds: e.TOOLGATE_DUPLICATE_WINDOW_SECONDS };
}

/** A tenant's settings as an admin sees and sets them. */
export async function getTenantSettings(options: { tenantId: string }): Promise<SettingsView> {
  const row = await db().tenant.findUnique({ where: { id: options.tenantId }, select: SETTINGS_SELECT });
  if (!row) throw new NotFoundError('tenant', options.tenantId);
  return { ...settingsOf(row), instance_defaults: instanceDefaults() };
}

/**
 * The settings every validation reads, from memory: one entry per tenant, dropped on every
 * instance when any tenant's settings change (the `tenant_settings` change counter), so a
 * change applies at the next call here and within a change poll elsewhere, with no database
 * read per call. The TTL bounds staleness should polling fail.
 */
let cache: ReturnType<typeof invalidatedCache<RuntimeSettings>> | undefined;
function settingsCache() {
  cache ??= invalidatedCache<RuntimeSettings>('tenant_settings', { maxEntries: 10_000, ttlMs: 60_000 });
  return cache;
}

export function getRuntimeSettings(tenantId: string): Promise<RuntimeSettings> {
  return settingsCache().load(tenantId, async () => {
    const row = await db().tenant.findUnique({ where: { id: tenantId }, select: SETTINGS_SELECT });
    const defaults = instanceDefaults();
    return {
      storeRawArguments: row?.storeRawArguments ?? false,
      retentionDays: row?.retentionDays ?? 30,
      sensitivePaths: Object.freeze(row ? parsePaths(row.sensitivePaths) : []),
      approvalTtlSeconds: row?.approvalTtlSeconds ?? defaults.approval_ttl_seconds,
      duplicateWindowSeconds: row?.duplicateWindowSeconds ?? defaults.duplicate_window_seconds,
    };
  });
}

/** A contract's own sensitive paths and the tenant's, the contract's first; the same array when the tenant adds none. */
export function mergeSensitivePaths(contractPaths: readonly string[] | undefined, tenantPaths: readonly string[]): readonly string[] {
  if (tenantPaths.length === 0) return contractPaths ?? [];
  if (!contractPaths || contractPaths.length === 0) return tenantPaths;
  return [...new Set([...contractPaths, ...tenantPaths])];
}

class ChangedMeanwhile extends Error {}

/**
 * The fields about to change whose database value is not the one the caller expected. Checked
 * on every attempt against the row that attempt's update is conditional on, so a change made
 * between the read and the write is caught by the next attempt's read.
 */
function staleFields(changed: SettingsField[], current: TenantSettings, expected: Partial<TenantSettings> | undefined): SettingsField[] {
  if (!expected) return [];
  return SETTINGS_FIELDS.filter((field) => {
    const value = expected[field];
    return changed.includes(field) && value !== undefined && !sameSetting(field, current[field], value);
  });
}

/**
 * Changes a tenant's settings (fields absent from `patch` stay as they are). The change, its
 * `settings` evidence record (before and after) and the cache invalidation commit in one
 * transaction; a patch that changes nothing records nothing. Two admins saving at once: the
 * update only applies over the values the record's "before" names, else it reads again.
 *
 * With `expected` (what the person saw of the fields they change: the settings page sends the
 * values it loaded), a field whose value in the database is no longer the expected one, and
 * which the patch would change, refuses the whole save with `conflict` (details.reason
 * `changed_since_loaded`, details.fields): someone else changed it since, and saving would undo
 * their change unseen. Nothing is written then.
 *
 * Turning retention off keeps the last number of days (shown again when it is turned back on);
 * the next retention purge removes every payload kept so far.
 */
export async function updateTenantSettings(options: {
  tenantId: string;
  patch: SettingsPatch;
  expected?: Partial<TenantSettings>;
  actor: AdminActor;
  requestId?: string;
  firstRecordId?: FirstRecordId;
}): Promise<SettingsView> {
  const { tenantId, patch } = options;
  for (let attempt = 0; attempt < 3; attempt++) {
    const row = await db().tenant.findUnique({ where: { id: tenantId }, select: SETTINGS_SELECT });
    if (!row) throw new NotFoundError('tenant', tenantId);
    const before = settingsOf(row);
    const after: TenantSettings = {
      argument_retention_days: patch.argument_retention_days === undefined ? before.argument_retention_days : patch.argument_retention_days,
      sensitive_paths: patch.sensitive_paths ?? before.sensitive_paths,
      approval_ttl_seconds: patch.approval_ttl_seconds === undefined ? before.approval_ttl_seconds : patch.approval_ttl_seconds,
      duplicate_window_seconds:
        patch.duplicate_window_seconds === undefined ? before.duplicate_window_seconds : patch.duplicate_window_seconds,
    };
    const changed = SETTINGS_FIELDS.filter((key) => !sameSetting(key, before[key], after[key]));
    if (changed.length === 0) return { ...before, instance_defaults: instanceDefaults() };
    const stale = staleFields(changed, before, options.expected);
    if (stale.length > 0)
      throw new AppError(
        'conflict',
        `${stale.join(', ')} ${stale.length === 1 ? 'was' : 'were'} changed by someone else since they were loaded; nothing was saved. Read the settings again.`,
        { reason: 'changed_since_loaded', fields: stale },
      );
    const data: SettingsRow = {
      storeRawArguments: after.argument_retention_days !== null,
      retentionDays: after.argument_retention_days ?? row.retentionDays,
      sensitivePaths: JSON.stringify(after.sensitive_paths),
      approvalTtlSeconds: after.approval_ttl_seconds,
      duplicateWindowSeconds: after.duplicate_window_seconds,
    };
    try {
      await recordAdminEvidence(
        {
          tenantId,
          kind: 'settings',
          action: 'settings_changed',
          actor: options.actor,
          details: { changed, before, after },
          requestId: options.requestId,
          firstRecordId: options.firstRecordId,
        },
        async (tx) => {
          const updated = await tx.tenant.updateMany({ where: { id: tenantId, ...row }, data });
          if (updated.count !== 1) throw new ChangedMeanwhile();
          await bumpChange(tx, 'tenant_settings');
        },
      );
    } catch (error) {
      if (error instanceof ChangedMeanwhile) continue;
      throw error;
    }
    notifyLocalChange('tenant_settings');
    return { ...after, instance_defaults: instanceDefaults() };
  }
  throw new AppError('conflict', 'The settings were changed by someone else while saving; reload them and try again.', {
    reason: 'changed_meanwhile',
  });
}
