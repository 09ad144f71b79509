CREATE TABLE "EvidenceCheckpoint" (
    "id" TEXT NOT NULL,
    "tenantId" TEXT NOT NULL,
    "seq" INTEGER NOT NULL,
    "hash" TEXT NOT NULL,
    "records" INTEGER NOT NULL,
    "verifiedAt" TIMESTAMP(3) NOT NULL,
    "source" TEXT NOT NULL,
    "mac" TEXT NOT NULL,
    CONSTRAINT "EvidenceCheckpoint_pkey" PRIMARY KEY ("id")
);
CREATE TABLE "EvidenceVerificationRun" (
    "id" TEXT NOT NULL,
    "tenantId" TEXT NOT NULL,
    "state" TEXT NOT NULL,
    "activeTenantId" TEXT,
    "requestedBy" TEXT NOT NULL,
    "throughSeq" INTEGER NOT NULL,
    "throughHash" TEXT NOT NULL,
    "checked" INTEGER NOT NULL DEFAULT 0,
    "cursorSeq" INTEGER NOT NULL DEFAULT 0,
    "cursorHash" TEXT NOT NULL,
    "cursorMac" TEXT NOT NULL,
    "firstBrokenSeq" INTEGER,
    "firstBrokenId" TEXT,
    "firstBrokenReason" TEXT,
    "error" TEXT,
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "leaseOwner" TEXT,
    "leaseUntil" TIMESTAMP(3),
    "checkpointId" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "startedAt" TIMESTAMP(3),
    "finishedAt" TIMESTAMP(3),
    CONSTRAINT "EvidenceVerificationRun_pkey" PRIMARY KEY ("id")
);
CREATE INDEX "EvidenceCheckpoint_tenantId_seq_idx" ON "EvidenceCheckpoint"("tenantId", "seq");
CREATE UNIQUE INDEX "EvidenceVerificationRun_activeTenantId_key" ON "EvidenceVerificationRun"("activeTenantId");
CREATE INDEX "EvidenceVerificationRun_tenantId_createdAt_idx" ON "EvidenceVerificationRun"("tenantId", "createdAt");
CREATE INDEX "EvidenceVerificationRun_state_leaseUntil_idx" ON "EvidenceVerificationRun"("state", "leaseUntil");
