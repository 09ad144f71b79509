import { resolveContract } from '../contracts/resolve-contract';
import { redactArguments } from '../evidence/redact-arguments';
import { getRuntimeSettings, mergeSensitivePaths } from '../tenants/tenant-settings';

/**
 * The sensitive paths people must not see in an approval's arguments: its contract version's
 * and the tenant's. Null when the version no longer resolves: nothing is known to be safe to
 * show, so callers show nothing rather than guess.
 */
export async function approvalSensitivePaths(row: {
  tenantId: string;
  tool: string;
  contractVersion: string;
}): Promise<readonly string[] | null> {
  const resolved = await resolveContract({ tenantId: row.tenantId, tool: row.tool, version: row.contractVersion });
  if (!resolved.found) return null;
  return mergeSensitivePaths(resolved.contract.compiled.document.sensitive, (await getRuntimeSettings(row.tenantId)).sensitivePaths);
}

/** Arguments as people may see them (sensitive paths redacted), or null when that cannot be known. */
export async function argumentsForPeople(
  row: { tenantId: string; tool: string; contractVersion: string },
  args: Record<string, unknown>,
): Promise<Record<string, unknown> | null> {
  const sensitive = await approvalSensitivePaths(row);
  return sensitive === null ? null : (JSON.parse(redactArguments(args, sensitive)) as Record<string, unknown>);
}

/** What the approval's rewriting policies were, from the column (null when none, or unreadable). */
export function parseRewrittenBy(text: string | null): { policy_id: string; version: string; rule: string }[] | null {
  if (text === null) return null;
  try {
    const value: unknown = JSON.parse(text);
    if (!Array.isArray(value)) return null;
    return value.flatMap((entry: unknown) => {
      const e = entry as { policy_id?: unknown; version?: unknown; rule?: unknown } | null;
      return e && typeof e.policy_id === 'string' && typeof e.version === 'string' && typeof e.rule === 'string'
        ? [{ policy_id: e.policy_id, version: e.version, rule: e.rule }]
        : [];
    });
  } catch {
    return null;
  }
}
