-- Edited by hand: a column added in place and filled, not the whole table copied (Prisma's
-- rebuild), and the new indexes IF NOT EXISTS, the old ones IF EXISTS (docs/operations.md,
-- "Upgrading a large database").
CREATE TABLE "TenantKey" (
    "key" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "tenantId" TEXT NOT NULL,
    CONSTRAINT "TenantKey_tenantId_fkey" FOREIGN KEY ("tenantId") REFERENCES "Tenant" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);
CREATE UNIQUE INDEX "TenantKey_tenantId_key" ON "TenantKey"("tenantId");
-- Every tenant there is gets its key now, oldest first; later ones when their first evidence is written.
INSERT INTO "TenantKey" ("tenantId") SELECT "id" FROM "Tenant" ORDER BY "createdAt", "id";
DROP INDEX IF EXISTS "Evidence_tenantId_traceId_seq_idx";
DROP INDEX IF EXISTS "Evidence_tenantId_tool_seq_idx";
DROP INDEX IF EXISTS "Evidence_tenantId_callId_idx";
ALTER TABLE "Evidence" ADD COLUMN "tenantKey" INTEGER NOT NULL DEFAULT 0;
UPDATE "Evidence" SET "tenantKey" = (SELECT "key" FROM "TenantKey" WHERE "TenantKey"."tenantId" = "Evidence"."tenantId");
CREATE INDEX IF NOT EXISTS "Evidence_tenantKey_traceId_seq_idx" ON "Evidence"("tenantKey", "traceId", "seq");
CREATE INDEX IF NOT EXISTS "Evidence_tenantKey_tool_seq_idx" ON "Evidence"("tenantKey", "tool", "seq");
CREATE INDEX IF NOT EXISTS "Evidence_tenantKey_callId_idx" ON "Evidence"("tenantKey", "callId");
