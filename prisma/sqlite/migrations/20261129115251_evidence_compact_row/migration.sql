-- Edited by hand to keep the contract hash of every record: each hash is stored once, in
-- EvidenceContractHash, and a record names it by key. And a record names its tenant by its key
-- alone (every record has had one since 20261129052152_evidence_tenant_key), the cascade from a
-- deleted tenant running through TenantKey. The rebuild of the table copies every row: on a
-- large database, docs/operations.md ("Upgrading a large database").
CREATE TABLE "EvidenceContractHash" (
    "key" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "hash" BLOB NOT NULL
);
CREATE UNIQUE INDEX "EvidenceContractHash_hash_key" ON "EvidenceContractHash"("hash");
INSERT INTO "EvidenceContractHash" ("hash")
SELECT "contractHash" FROM "Evidence" WHERE "contractHash" IS NOT NULL GROUP BY "contractHash" ORDER BY min("createdAt"), "contractHash";
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_Evidence" (
    "id" TEXT NOT NULL PRIMARY KEY,
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
    "contractHashKey" INTEGER,
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
    "tenantKey" INTEGER NOT NULL,
    CONSTRAINT "Evidence_contractHashKey_fkey" FOREIGN KEY ("contractHashKey") REFERENCES "EvidenceContractHash" ("key") ON DELETE RESTRICT ON UPDATE RESTRICT,
    CONSTRAINT "Evidence_tenantKey_fkey" FOREIGN KEY ("tenantKey") REFERENCES "TenantKey" ("key") ON DELETE CASCADE ON UPDATE CASCADE
);
INSERT INTO "new_Evidence" ("actorUserId", "apiKeyId", "argsHash", "arguments", "callId", "contractVersion", "createdAt", "decision", "details", "duplicateKey", "durationMs", "errors", "executionMs", "hash", "id", "idempotencyKey", "kind", "lane", "mcpServer", "payload", "payloadHash", "policy", "policyId", "policyRule", "policyVersion", "prevHash", "requestId", "seq", "shadowDiffers", "tenantKey", "tool", "traceId", "valid", "w3cTraceparent", "warnings", "contractHashKey") SELECT "actorUserId", "apiKeyId", "argsHash", "arguments", "callId", "contractVersion", "createdAt", "decision", "details", "duplicateKey", "durationMs", "errors", "executionMs", "hash", "id", "idempotencyKey", "kind", "lane", "mcpServer", "payload", "payloadHash", "policy", "policyId", "policyRule", "policyVersion", "prevHash", "requestId", "seq", "shadowDiffers", "tenantKey", "tool", "traceId", "valid", "w3cTraceparent", "warnings", (SELECT c."key" FROM "EvidenceContractHash" c WHERE c."hash" = "Evidence"."contractHash") FROM "Evidence";
DROP TABLE "Evidence";
ALTER TABLE "new_Evidence" RENAME TO "Evidence";
CREATE INDEX "Evidence_tenantKey_traceId_seq_idx" ON "Evidence"("tenantKey", "traceId", "seq");
CREATE INDEX "Evidence_duplicateKey_seq_idx" ON "Evidence"("duplicateKey", "seq") WHERE "duplicateKey" IS NOT NULL;
CREATE INDEX "Evidence_tenantKey_tool_seq_idx" ON "Evidence"("tenantKey", "tool", "seq");
CREATE INDEX "Evidence_tenantKey_callId_idx" ON "Evidence"("tenantKey", "callId");
CREATE UNIQUE INDEX "Evidence_tenantKey_seq_key" ON "Evidence"("tenantKey", "seq");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;
