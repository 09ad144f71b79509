ALTER TABLE "Evidence" ADD COLUMN     "lane" INTEGER NOT NULL DEFAULT 0;
ALTER TABLE "EvidenceChainHead" DROP CONSTRAINT "EvidenceChainHead_pkey",
ADD COLUMN     "lane" INTEGER NOT NULL DEFAULT 0,
ADD CONSTRAINT "EvidenceChainHead_pkey" PRIMARY KEY ("tenantId", "lane");
ALTER TABLE "EvidenceRollup" DROP CONSTRAINT "EvidenceRollup_pkey",
ADD COLUMN     "lane" INTEGER NOT NULL DEFAULT 0,
ADD CONSTRAINT "EvidenceRollup_pkey" PRIMARY KEY ("tenantId", "hour", "kind", "decision", "lane");
ALTER TABLE "ViolationRollup" DROP CONSTRAINT "ViolationRollup_pkey",
ADD COLUMN     "lane" INTEGER NOT NULL DEFAULT 0,
ADD CONSTRAINT "ViolationRollup_pkey" PRIMARY KEY ("tenantId", "span", "dimension", "bucket", "code", "decision", "value", "lane");
ALTER TABLE "EvidenceCheckpoint" ADD COLUMN     "lanes" TEXT;
ALTER TABLE "EvidenceVerificationRun" ADD COLUMN     "cursorLanes" TEXT,
ADD COLUMN     "throughLanes" TEXT;
CREATE TABLE "EvidenceSequence" (
    "tenantId" TEXT NOT NULL,
    "seq" INTEGER NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL,
    CONSTRAINT "EvidenceSequence_pkey" PRIMARY KEY ("tenantId")
);
