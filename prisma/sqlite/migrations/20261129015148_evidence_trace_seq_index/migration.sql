-- IF [NOT] EXISTS so an operator can build the new index CONCURRENTLY (PostgreSQL) before upgrading
-- a large database and drop the old one, instead of blocking evidence writes while it builds
-- (docs/operations.md, "Upgrading a large database").
CREATE INDEX IF NOT EXISTS "Evidence_tenantId_traceId_seq_idx" ON "Evidence"("tenantId", "traceId", "seq");
DROP INDEX IF EXISTS "Evidence_tenantId_traceId_idx";
