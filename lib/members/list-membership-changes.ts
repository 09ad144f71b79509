import { db } from '../db';
import { tenantEvidence } from '../evidence/tenant-key';

export interface MembershipChange {
  id: string;
  seq: number;
  createdAt: Date;
  /** member_invited, invitation_revoked, invitation_accepted, member_role_changed, member_removed. */
  action: string;
  /** `user:<id>`, `api_key:<id>` or `system`. */
  actor: string;
  details: Record<string, unknown>;
}

/** The tenant's latest membership records, newest first, read from its evidence chain. */
export async function listMembershipChanges(options: { tenantId: string; limit?: number }): Promise<MembershipChange[]> {
  const rows = await db().evidence.findMany({
    where: { ...(await tenantEvidence(options.tenantId)), kind: 'membership' },
    orderBy: { seq: 'desc' },
    take: Math.min(Math.max(options.limit ?? 20, 1), 200),
    select: { id: true, seq: true, createdAt: true, decision: true, actorUserId: true, apiKeyId: true, details: true },
  });
  return rows.map((row) => ({
    id: row.id,
    seq: row.seq,
    createdAt: row.createdAt,
    action: row.decision,
    actor: row.actorUserId ? `user:${row.actorUserId}` : row.apiKeyId ? `api_key:${row.apiKeyId}` : 'system',
    details: parseDetails(row.details),
  }));
}

function parseDetails(text: string | null): Record<string, unknown> {
  if (!text) return {};
  try {
    const value: unknown = JSON.parse(text);
    return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}
