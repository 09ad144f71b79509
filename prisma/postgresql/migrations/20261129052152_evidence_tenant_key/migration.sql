-- Edited by hand: every existing tenant gets its key and every record its tenant's, the old
-- indexes are dropped before the records are rewritten (not maintained through it), the new
-- ones created IF NOT EXISTS, and the call_id index with text_pattern_ops as before
-- (20261127001229_trace_call_id_search). On a large database see docs/operations.md, "Upgrading
-- a large database".
CREATE TABLE "TenantKey" (
    "key" SERIAL NOT NULL,
    "tenantId" TEXT NOT NULL,
    CONSTRAINT "TenantKey_pkey" PRIMARY KEY ("key")
);
CREATE UNIQUE INDEX "TenantKey_tenantId_key" ON "TenantKey"("tenantId");
ALTER TABLE "TenantKey" ADD CONSTRAINT "TenantKey_tenantId_fkey" FOREIGN KEY ("tenantId") REFERENCES "Tenant"("id") ON DELETE CASCADE ON UPDATE CASCADE;
INSERT INTO "TenantKey" ("tenantId") SELECT "id" FROM "Tenant" ORDER BY "createdAt", "id";
DROP INDEX IF EXISTS "Evidence_tenantId_traceId_seq_idx";
DROP INDEX IF EXISTS "Evidence_tenantId_tool_seq_idx";
DROP INDEX IF EXISTS "Evidence_tenantId_callId_idx";
ALTER TABLE "Evidence" ADD COLUMN "tenantKey" INTEGER NOT NULL DEFAULT 0;
UPDATE "Evidence" e SET "tenantKey" = k."key" FROM "TenantKey" k WHERE k."tenantId" = e."tenantId";
CREATE INDEX IF NOT EXISTS "Evidence_tenantKey_traceId_seq_idx" ON "Evidence"("tenantKey", "traceId", "seq");
CREATE INDEX IF NOT EXISTS "Evidence_tenantKey_tool_seq_idx" ON "Evidence"("tenantKey", "tool", "seq");
CREATE INDEX IF NOT EXISTS "Evidence_tenantKey_callId_idx" ON "Evidence"("tenantKey", "callId" text_pattern_ops);
