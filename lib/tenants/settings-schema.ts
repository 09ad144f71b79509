import { z } from 'zod';

// The shape and limits of a tenant's settings, in a module without server imports: the
// service, the API and the settings page's form all check the same rules.

/** Raw payloads are kept at most this long (about ten years). */
export const RETENTION_DAYS_MAX = 3650;
export const SENSITIVE_PATHS_MAX = 100;
export const SENSITIVE_PATH_MAX_CHARS = 256;
export const SENSITIVE_PATH_MAX_SEGMENTS = 16;
/** A pending approval's default lifetime: 10 seconds to 30 days. */
export const APPROVAL_TTL_SECONDS = { min: 10, max: 30 * 24 * 3600 } as const;
/** The duplicate-call window: 1 second to 7 days. */
export const DUPLICATE_WINDOW_SECONDS = { min: 1, max: 7 * 24 * 3600 } as const;

/** What an admin sets, in the API's names. `null` means off (retention) or the instance default. */
export interface TenantSettings {
  argument_retention_days: number | null;
  sensitive_paths: string[];
  approval_ttl_seconds: number | null;
  duplicate_window_seconds: number | null;
}

const SEGMENT = /^[A-Za-z0-9_-]{1,64}$/;
// Redaction defines keys along these paths; a prototype's name must never be one of them.
const FORBIDDEN_SEGMENTS = new Set(['__proto__', 'constructor', 'prototype']);

/** Why a dotted argument path is not acceptable, or null when it is. */
export function sensitivePathProblem(path: string): string | null {
  if (path.length === 0) return 'is empty';
  if (path.length > SENSITIVE_PATH_MAX_CHARS) return `is longer than ${SENSITIVE_PATH_MAX_CHARS} characters`;
  const segments = path.split('.');
  if (segments.length > SENSITIVE_PATH_MAX_SEGMENTS) return `has more than ${SENSITIVE_PATH_MAX_SEGMENTS} segments`;
  for (const segment of segments) {
    if (FORBIDDEN_SEGMENTS.has(segment)) return `uses the reserved name "${segment}"`;
    if (!SEGMENT.test(segment)) return 'must be dot-separated names of letters, digits, "_" or "-" (e.g. card.holder_name)';
  }
  return null;
}

const SensitivePaths = z
  .array(
    z
      .string()
      .trim()
      .max(SENSITIVE_PATH_MAX_CHARS * 2),
  )
  .max(SENSITIVE_PATHS_MAX, `at most ${SENSITIVE_PATHS_MAX} sensitive paths`)
  .superRefine((paths, ctx) => {
    paths.forEach((path, index) => {
      const problem = sensitivePathProblem(path);
      if (problem) ctx.addIssue({ code: 'custom', path: [index], message: `"${path.slice(0, 80)}" ${problem}` });
    });
  })
  // Order kept as entered, duplicates dropped.
  .transform((paths) => [...new Set(paths)])
  .describe(`Dotted argument paths always stored redacted, on top of each contract's own \`sensitive\` (at most ${SENSITIVE_PATHS_MAX}).`);

/**
 * A whole number in a range, with one message for every way to miss it: the settings page
 * sends what was typed as text when it is not a plain number ("-1", "1.5", "1e3"), which would
 * otherwise read "expected number, received string" to someone who typed a number.
 */
const wholeNumber = (unit: string, range: { min: number; max: number }) => {
  const error = `must be a whole number of ${unit} from ${range.min} to ${range.max}`;
  return z.number({ error }).int({ error }).min(range.min, { error }).max(range.max, { error });
};

const seconds = (range: { min: number; max: number }) => wholeNumber('seconds', range).nullable();

/** A PATCH of the settings: any of the fields, at least one. */
export const SettingsPatchSchema = z
  .object({
    argument_retention_days: wholeNumber('days', { min: 1, max: RETENTION_DAYS_MAX })
      .nullable()
      .optional()
      .describe(
        `Keep raw arguments, context and results this many days (1-${RETENTION_DAYS_MAX}); null turns retention off (hashes only).`,
      ),
    sensitive_paths: SensitivePaths.optional(),
    approval_ttl_seconds: seconds(APPROVAL_TTL_SECONDS)
      .optional()
      .describe(
        `How long an approval stays pending unless the contract or policy says otherwise (${APPROVAL_TTL_SECONDS.min} s to 30 days); null: the instance default.`,
      ),
    duplicate_window_seconds: seconds(DUPLICATE_WINDOW_SECONDS)
      .optional()
      .describe(
        `How far back an identical call of a non-idempotent tool counts as a duplicate (${DUPLICATE_WINDOW_SECONDS.min} s to 7 days); null: the instance default.`,
      ),
  })
  .strict()
  .refine((patch) => Object.keys(patch).length > 0, { message: 'send at least one setting' });

export type SettingsPatch = z.infer<typeof SettingsPatchSchema>;

/** The hidden field the settings form sends the settings back in, as it rendered them (JSON). */
export const LOADED_SETTINGS_FIELD = 'loaded_settings';

export const SETTINGS_FIELDS = ['argument_retention_days', 'sensitive_paths', 'approval_ttl_seconds', 'duplicate_window_seconds'] as const;
export type SettingsField = (typeof SETTINGS_FIELDS)[number];

/** Whether two values of one setting are the same (paths in order, as they are kept). */
export function sameSetting<F extends SettingsField>(field: F, a: TenantSettings[F], b: TenantSettings[F]): boolean {
  return field === 'sensitive_paths' ? JSON.stringify(a) === JSON.stringify(b) : a === b;
}

/**
 * The settings as a page rendered them, which its form sends back (a hidden field, JSON) so that
 * a save changes only what the person changed. Looser than SettingsPatchSchema: it is what the
 * database held, whatever today's limits. Anything else (an old form, a hand-made request) is null.
 */
const LoadedSettingsSchema = z
  .object({
    argument_retention_days: z.number().int().nullable(),
    sensitive_paths: z.array(z.string().max(SENSITIVE_PATH_MAX_CHARS * 2)).max(SENSITIVE_PATHS_MAX * 10),
    approval_ttl_seconds: z.number().int().nullable(),
    duplicate_window_seconds: z.number().int().nullable(),
  })
  .strict();

export function parseLoadedSettings(text: string): TenantSettings | null {
  if (text.length === 0 || text.length > 256 * 1024) return null;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return null;
  }
  const parsed = LoadedSettingsSchema.safeParse(value);
  return parsed.success ? parsed.data : null;
}

/**
 * What a save from a form changes: the fields whose submitted value differs from the one the
 * page loaded (`patch`), and those loaded values (`expected`, for updateTenantSettings to refuse
 * a field someone else changed meanwhile). A field left as loaded is in neither: saving never
 * writes it back over a newer value.
 */
export function settingsChanges(
  loaded: TenantSettings,
  submitted: TenantSettings,
): { patch: SettingsPatch; expected: Partial<TenantSettings>; fields: SettingsField[] } {
  const fields = SETTINGS_FIELDS.filter((field) => !sameSetting(field, loaded[field], submitted[field]));
  const patch: Record<string, unknown> = {};
  const expected: Record<string, unknown> = {};
  for (const field of fields) {
    patch[field] = submitted[field];
    expected[field] = loaded[field];
  }
  return { patch: patch as SettingsPatch, expected: expected as Partial<TenantSettings>, fields };
}
