CREATE INDEX "Approval_status_expiresAt_idx" ON "Approval"("status", "expiresAt");
