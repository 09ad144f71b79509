CREATE INDEX "Evidence_tenantId_callId_idx" ON "Evidence"("tenantId", "callId");
