-- Evidence names its tenant by its key alone: the tenantId column goes, and the cascade from a
-- deleted tenant runs through TenantKey. Every record has had its key since
-- 20261129052152_evidence_tenant_key. docs/operations.md, "Upgrading a large database".
ALTER TABLE "Evidence" DROP CONSTRAINT "Evidence_tenantId_fkey";
ALTER TABLE "Evidence" DROP COLUMN "tenantId",
ALTER COLUMN "tenantKey" DROP DEFAULT;
ALTER TABLE "Evidence" ADD CONSTRAINT "Evidence_tenantKey_fkey" FOREIGN KEY ("tenantKey") REFERENCES "TenantKey"("key") ON DELETE CASCADE ON UPDATE CASCADE;
