DROP INDEX "Evidence_tenantId_tool_argsHash_createdAt_idx";
DROP INDEX "Evidence_tenantId_idempotencyKey_idx";
ALTER TABLE "Evidence" ADD COLUMN "duplicateKey" TEXT;
CREATE INDEX "Evidence_duplicateKey_idx" ON "Evidence"("duplicateKey");
