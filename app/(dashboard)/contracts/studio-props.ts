import 'server-only';
import type { ContractVersionSummary } from '@/lib/contracts/list-contracts';
import type { Role } from '@/lib/tenants/roles';
import type { StudioVersion } from '@/components/studio';

/** Versions as the studio takes them: plain JSON, dates as ISO strings. */
export function studioVersions(versions: readonly ContractVersionSummary[]): StudioVersion[] {
  return versions.map((v) => ({ version: v.version, status: v.status, contentHash: v.contentHash, publishedAt: v.publishedAt?.toISOString() ?? null, changeNote: v.changeNote }));
}

export function readOnlyReason(role: Role): string {
  return `Only authors and admins can edit or publish contracts; your role is ${role}.`;
}
