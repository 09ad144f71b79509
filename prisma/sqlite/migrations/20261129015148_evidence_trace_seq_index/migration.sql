DROP INDEX "Evidence_tenantId_traceId_idx";
CREATE INDEX "Evidence_tenantId_traceId_seq_idx" ON "Evidence"("tenantId", "traceId", "seq");
