ALTER TABLE "EvidenceCheckpoint" ADD COLUMN "lanes" TEXT;
ALTER TABLE "EvidenceVerificationRun" ADD COLUMN "cursorLanes" TEXT;
ALTER TABLE "EvidenceVerificationRun" ADD COLUMN "throughLanes" TEXT;
CREATE TABLE "EvidenceSequence" (
    "tenantId" TEXT NOT NULL PRIMARY KEY,
    "seq" INTEGER NOT NULL,
    "createdAt" DATETIME NOT NULL
);
-- A column added in place: rebuilding Evidence would copy every record.
ALTER TABLE "Evidence" ADD COLUMN "lane" INTEGER NOT NULL DEFAULT 0;
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_EvidenceChainHead" (
    "tenantId" TEXT NOT NULL,
    "lane" INTEGER NOT NULL DEFAULT 0,
    "seq" INTEGER NOT NULL,
    "hash" TEXT NOT NULL,
    PRIMARY KEY ("tenantId", "lane")
);
INSERT INTO "new_EvidenceChainHead" ("hash", "seq", "tenantId") SELECT "hash", "seq", "tenantId" FROM "EvidenceChainHead";
DROP TABLE "EvidenceChainHead";
ALTER TABLE "new_EvidenceChainHead" RENAME TO "EvidenceChainHead";
CREATE TABLE "new_EvidenceRollup" (
    "tenantId" TEXT NOT NULL,
    "hour" DATETIME NOT NULL,
    "kind" TEXT NOT NULL,
    "decision" TEXT NOT NULL,
    "records" INTEGER NOT NULL,
    "shadowDiffers" INTEGER NOT NULL,
    "policyRefusals" INTEGER NOT NULL,
    "lane" INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY ("tenantId", "hour", "kind", "decision", "lane"),
    CONSTRAINT "EvidenceRollup_tenantId_fkey" FOREIGN KEY ("tenantId") REFERENCES "Tenant" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);
INSERT INTO "new_EvidenceRollup" ("decision", "hour", "kind", "policyRefusals", "records", "shadowDiffers", "tenantId") SELECT "decision", "hour", "kind", "policyRefusals", "records", "shadowDiffers", "tenantId" FROM "EvidenceRollup";
DROP TABLE "EvidenceRollup";
ALTER TABLE "new_EvidenceRollup" RENAME TO "EvidenceRollup";
CREATE TABLE "new_ViolationRollup" (
    "tenantId" TEXT NOT NULL,
    "span" INTEGER NOT NULL,
    "dimension" TEXT NOT NULL,
    "bucket" DATETIME NOT NULL,
    "code" TEXT NOT NULL,
    "decision" TEXT NOT NULL,
    "value" TEXT NOT NULL,
    "count" INTEGER NOT NULL,
    "lane" INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY ("tenantId", "span", "dimension", "bucket", "code", "decision", "value", "lane"),
    CONSTRAINT "ViolationRollup_tenantId_fkey" FOREIGN KEY ("tenantId") REFERENCES "Tenant" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);
INSERT INTO "new_ViolationRollup" ("bucket", "code", "count", "decision", "dimension", "span", "tenantId", "value") SELECT "bucket", "code", "count", "decision", "dimension", "span", "tenantId", "value" FROM "ViolationRollup";
DROP TABLE "ViolationRollup";
ALTER TABLE "new_ViolationRollup" RENAME TO "ViolationRollup";
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;
