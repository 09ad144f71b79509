DROP INDEX "Evidence_duplicateKey_idx";
CREATE INDEX "Evidence_duplicateKey_seq_idx" ON "Evidence"("duplicateKey", "seq") WHERE "duplicateKey" IS NOT NULL;
