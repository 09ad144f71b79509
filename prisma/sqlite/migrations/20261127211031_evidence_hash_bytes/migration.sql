-- Evidence's hashes as bytes instead of hex text: 32 bytes a SHA-256 instead of 64 (issue 19,
-- lib/evidence/stored-hashes.ts). Each value becomes the bytes its hex spells, so every record
-- hashes and verifies as before. A value that is not lowercase hex (edited by hand) is kept as
-- its UTF-8 bytes: it reads back as other hex, and verification still reports that record.
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_Evidence" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "tenantId" TEXT NOT NULL,
    "seq" INTEGER NOT NULL,
    "lane" INTEGER NOT NULL DEFAULT 0,
    "prevHash" BLOB NOT NULL,
    "hash" BLOB NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "kind" TEXT NOT NULL,
    "requestId" TEXT NOT NULL,
    "traceId" TEXT NOT NULL,
    "callId" TEXT NOT NULL,
    "w3cTraceparent" TEXT,
    "apiKeyId" TEXT,
    "actorUserId" TEXT,
    "tool" TEXT NOT NULL,
    "contractVersion" TEXT,
    "contractHash" BLOB,
    "argsHash" BLOB NOT NULL,
    "idempotencyKey" TEXT,
    "arguments" TEXT,
    "decision" TEXT NOT NULL,
    "valid" BOOLEAN NOT NULL,
    "errors" TEXT NOT NULL,
    "warnings" TEXT NOT NULL,
    "durationMs" REAL NOT NULL,
    "policyId" TEXT,
    "policyVersion" TEXT,
    "policyRule" TEXT,
    "policy" TEXT,
    "shadowDiffers" BOOLEAN NOT NULL DEFAULT false,
    "executionMs" REAL,
    "payload" TEXT,
    "payloadHash" TEXT,
    "details" TEXT,
    "mcpServer" TEXT,
    "duplicateKey" TEXT,
    CONSTRAINT "Evidence_tenantId_fkey" FOREIGN KEY ("tenantId") REFERENCES "Tenant" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);
INSERT INTO "new_Evidence" ("actorUserId", "apiKeyId", "argsHash", "arguments", "callId", "contractHash", "contractVersion", "createdAt", "decision", "details", "duplicateKey", "durationMs", "errors", "executionMs", "hash", "id", "idempotencyKey", "kind", "lane", "mcpServer", "payload", "payloadHash", "policy", "policyId", "policyRule", "policyVersion", "prevHash", "requestId", "seq", "shadowDiffers", "tenantId", "tool", "traceId", "valid", "w3cTraceparent", "warnings") SELECT "actorUserId", "apiKeyId", CASE WHEN "argsHash" = lower("argsHash") AND unhex("argsHash") IS NOT NULL THEN unhex("argsHash") ELSE CAST("argsHash" AS BLOB) END, "arguments", "callId", CASE WHEN "contractHash" = lower("contractHash") AND unhex("contractHash") IS NOT NULL THEN unhex("contractHash") ELSE CAST("contractHash" AS BLOB) END, "contractVersion", "createdAt", "decision", "details", "duplicateKey", "durationMs", "errors", "executionMs", CASE WHEN "hash" = lower("hash") AND unhex("hash") IS NOT NULL THEN unhex("hash") ELSE CAST("hash" AS BLOB) END, "id", "idempotencyKey", "kind", "lane", "mcpServer", "payload", "payloadHash", "policy", "policyId", "policyRule", "policyVersion", CASE WHEN "prevHash" = lower("prevHash") AND unhex("prevHash") IS NOT NULL THEN unhex("prevHash") ELSE CAST("prevHash" AS BLOB) END, "requestId", "seq", "shadowDiffers", "tenantId", "tool", "traceId", "valid", "w3cTraceparent", "warnings" FROM "Evidence";
DROP TABLE "Evidence";
ALTER TABLE "new_Evidence" RENAME TO "Evidence";
CREATE INDEX "Evidence_tenantId_traceId_idx" ON "Evidence"("tenantId", "traceId");
CREATE INDEX "Evidence_duplicateKey_idx" ON "Evidence"("duplicateKey");
CREATE INDEX "Evidence_tenantId_tool_seq_idx" ON "Evidence"("tenantId", "tool", "seq");
CREATE INDEX "Evidence_tenantId_callId_idx" ON "Evidence"("tenantId", "callId");
CREATE UNIQUE INDEX "Evidence_tenantId_seq_key" ON "Evidence"("tenantId", "seq");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;
