CREATE INDEX "Evidence_tenantId_tool_seq_idx" ON "Evidence"("tenantId", "tool", "seq");
CREATE INDEX "Approval_tenantId_traceId_idx" ON "Approval"("tenantId", "traceId");
