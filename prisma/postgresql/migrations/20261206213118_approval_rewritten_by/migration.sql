ALTER TABLE "Approval" ADD COLUMN     "rewrittenBy" TEXT;
