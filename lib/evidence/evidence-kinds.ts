/** Records of calls and of approval decisions: what the traces, overview and violations show. */
export const CALL_EVIDENCE_KINDS = ['pre', 'post', 'approval_decision', 'pipeline', 'manifest'] as const;
/** Records of changes to the tenant itself (members, settings, the retention purge), in the same chain. */
export const ADMIN_EVIDENCE_KINDS = ['membership', 'settings', 'retention_purge', 'mcp_drift'] as const;
export type EvidenceKind = (typeof CALL_EVIDENCE_KINDS)[number] | (typeof ADMIN_EVIDENCE_KINDS)[number];
