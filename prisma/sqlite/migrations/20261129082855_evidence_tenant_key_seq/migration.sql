-- Edited by hand: the new index first and IF NOT EXISTS, the old one dropped after it and IF
-- EXISTS, so a tenant's records stay reachable in order throughout (docs/operations.md,
-- "Upgrading a large database"). Every record has its tenant's key since
-- 20261129052152_evidence_tenant_key.
CREATE UNIQUE INDEX IF NOT EXISTS "Evidence_tenantKey_seq_key" ON "Evidence"("tenantKey", "seq");
DROP INDEX IF EXISTS "Evidence_tenantId_seq_key";
