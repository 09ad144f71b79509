-- Written by hand instead of the generated table rebuild: SQLite adds these columns in place,
-- and rebuilding "Tenant" (DROP TABLE) would cascade-delete every row that references it if
-- the migration ran with foreign keys enforced.
ALTER TABLE "Tenant" ADD COLUMN "retentionDays" INTEGER NOT NULL DEFAULT 30;
ALTER TABLE "Tenant" ADD COLUMN "sensitivePaths" TEXT NOT NULL DEFAULT '[]';
ALTER TABLE "Tenant" ADD COLUMN "approvalTtlSeconds" INTEGER;
ALTER TABLE "Tenant" ADD COLUMN "duplicateWindowSeconds" INTEGER;
ALTER TABLE "Evidence" ADD COLUMN "details" TEXT;
ALTER TABLE "Evidence" ADD COLUMN "payload" TEXT;
ALTER TABLE "Evidence" ADD COLUMN "payloadHash" TEXT;
CREATE TABLE "Invitation" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "tenantId" TEXT NOT NULL,
    "email" TEXT NOT NULL,
    "role" TEXT NOT NULL,
    "tokenHash" TEXT NOT NULL,
    "invitedBy" TEXT NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expiresAt" DATETIME NOT NULL,
    "acceptedAt" DATETIME,
    "acceptedUserId" TEXT,
    "revokedAt" DATETIME,
    CONSTRAINT "Invitation_tenantId_fkey" FOREIGN KEY ("tenantId") REFERENCES "Tenant" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);
CREATE UNIQUE INDEX "Invitation_tokenHash_key" ON "Invitation"("tokenHash");
CREATE INDEX "Invitation_tenantId_createdAt_idx" ON "Invitation"("tenantId", "createdAt");
CREATE INDEX "Invitation_email_idx" ON "Invitation"("email");
