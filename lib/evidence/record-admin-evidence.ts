import { timeOrderedId } from './time-ordered-id';
import type { Tx } from '../db';
import type { FirstRecordId } from './first-record-id';
import { hashCanonical } from '../contracts/canonical-json';
import { recordEvidence, type RecordedEvidence } from './record-evidence';
import { AppError } from '../errors';
import { traceIdFor } from './trace-id';

/** Who made an administrative change: a signed-in person, an API key, or Toolgate itself (jobs, the CLI). */
export type AdminActor = { kind: 'user'; userId: string } | { kind: 'api_key'; apiKeyId: string } | { kind: 'system' };

/**
 * Appends an administrative record (a membership change, a settings change, a retention purge)
 * to the tenant's evidence chain, so "who changed what, when" is as tamper-evident as every
 * decision. `details` says what changed (before and after); it is hashed like every other
 * field. `within` runs in the same transaction as the record, so a change and its record
 * commit together or not at all.
 *
 * These records are not calls: `tool` names the administrative area (`toolgate.members`,
 * `toolgate.settings`, `toolgate.retention`) and the traces, overview and violations views
 * leave them out.
 */
export function recordAdminEvidence<T = undefined>(
  options: {
    tenantId: string;
    kind: 'membership' | 'settings' | 'retention_purge' | 'mcp_drift';
    /** What happened, e.g. `member_invited`, `member_role_changed`, `settings_changed`. */
    action: string;
    actor: AdminActor;
    details: Record<string, unknown>;
    requestId?: string;
    /** With the request's requestId, when Toolgate made it (./first-record-id.ts). */
    firstRecordId?: FirstRecordId;
  },
  within?: (tx: Tx) => Promise<T>,
): Promise<RecordedEvidence & { extra: T }> {
  // Without a request's id (jobs, the CLI, sign-in) the record has one made for it alone, which
  // is then its own id as well.
  const requestId = options.requestId ?? timeOrderedId();
  const recordId = options.requestId === undefined ? requestId : options.firstRecordId?.take();
  const details = JSON.stringify(options.details);
  return recordEvidence<T>(
    {
      tenantId: options.tenantId,
      kind: options.kind,
      requestId,
      recordId,
      // Each change is its own trace, never joined to a call's.
      traceId: traceIdFor(options.tenantId, `admin:${requestId}`),
      callId: `admin:${requestId}`,
      apiKeyId: options.actor.kind === 'api_key' ? options.actor.apiKeyId : null,
      actorUserId: options.actor.kind === 'user' ? options.actor.userId : null,
      tool: ADMIN_TOOL[options.kind],
      argsHash: hashCanonical(options.details),
      decision: options.action,
      valid: true,
      errors: [],
      warnings: [],
      durationMs: 0,
      details,
    },
    within,
  ).catch((error: unknown) => {
    // The writer words its 503 for a call's decision; this is a change a person or job made.
    if (error instanceof AppError && error.code === 'unavailable' && error.details?.reason === 'evidence_unavailable')
      throw new AppError(
        'unavailable',
        'Toolgate could not record this change, so it did not make it. Retry shortly.',
        error.details,
        error.headers,
      );
    throw error;
  });
}

const ADMIN_TOOL = {
  membership: 'toolgate.members',
  settings: 'toolgate.settings',
  retention_purge: 'toolgate.retention',
  mcp_drift: 'toolgate.mcp',
} as const;
