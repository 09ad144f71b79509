ALTER TABLE "Approval" ADD COLUMN "context" TEXT;
