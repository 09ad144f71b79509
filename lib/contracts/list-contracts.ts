import { db } from '../db';

export interface ContractVersionSummary {
  version: string;
  status: string;
  contentHash: string;
  changeNote: string | null;
  createdAt: Date;
  publishedAt: Date | null;
  deprecatedAt: Date | null;
}

export interface ContractSummary {
  tool: string;
  description: string;
  owner: string;
  deprecatedAt: Date | null;
  /** The version the runtime serves when a call does not pin one. */
  latestVersion: string | null;
  versions: ContractVersionSummary[];
}

/** Every contract of a tenant with its versions, newest first. */
export async function listContracts(options: { tenantId: string }): Promise<ContractSummary[]> {
  const rows = await db().contract.findMany({
    where: { tenantId: options.tenantId },
    orderBy: { tool: 'asc' },
    include: {
      latestVersion: { select: { version: true } },
      versions: {
        orderBy: { createdAt: 'desc' },
        select: { version: true, status: true, contentHash: true, changeNote: true, createdAt: true, publishedAt: true, deprecatedAt: true },
      },
    },
  });
  return rows.map((row) => ({
    tool: row.tool,
    description: row.description,
    owner: row.owner,
    deprecatedAt: row.deprecatedAt,
    latestVersion: row.latestVersion?.version ?? null,
    versions: row.versions,
  }));
}
