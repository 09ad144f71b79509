CREATE TABLE "ApprovalVote" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "tenantId" TEXT NOT NULL,
    "approvalId" TEXT NOT NULL,
    "approverId" TEXT NOT NULL,
    "decision" TEXT NOT NULL,
    "comment" TEXT,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "ApprovalVote_approvalId_fkey" FOREIGN KEY ("approvalId") REFERENCES "Approval" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);
CREATE TABLE "Webhook" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "tenantId" TEXT NOT NULL,
    "url" TEXT NOT NULL,
    "events" TEXT NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "disabledAt" DATETIME,
    CONSTRAINT "Webhook_tenantId_fkey" FOREIGN KEY ("tenantId") REFERENCES "Tenant" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);
CREATE TABLE "WebhookDelivery" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "tenantId" TEXT NOT NULL,
    "webhookId" TEXT NOT NULL,
    "event" TEXT NOT NULL,
    "payload" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'pending',
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "nextAttemptAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "lastError" TEXT,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "deliveredAt" DATETIME,
    CONSTRAINT "WebhookDelivery_webhookId_fkey" FOREIGN KEY ("webhookId") REFERENCES "Webhook" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_Evidence" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "tenantId" TEXT NOT NULL,
    "seq" INTEGER NOT NULL,
    "prevHash" TEXT NOT NULL,
    "hash" TEXT NOT NULL,
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
    "contractHash" TEXT,
    "argsHash" TEXT NOT NULL,
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
    CONSTRAINT "Evidence_tenantId_fkey" FOREIGN KEY ("tenantId") REFERENCES "Tenant" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);
INSERT INTO "new_Evidence" ("actorUserId", "apiKeyId", "argsHash", "arguments", "callId", "contractHash", "contractVersion", "createdAt", "decision", "durationMs", "errors", "hash", "id", "idempotencyKey", "kind", "prevHash", "requestId", "seq", "tenantId", "tool", "traceId", "valid", "w3cTraceparent", "warnings") SELECT "actorUserId", "apiKeyId", "argsHash", "arguments", "callId", "contractHash", "contractVersion", "createdAt", "decision", "durationMs", "errors", "hash", "id", "idempotencyKey", "kind", "prevHash", "requestId", "seq", "tenantId", "tool", "traceId", "valid", "w3cTraceparent", "warnings" FROM "Evidence";
DROP TABLE "Evidence";
ALTER TABLE "new_Evidence" RENAME TO "Evidence";
CREATE INDEX "Evidence_tenantId_traceId_idx" ON "Evidence"("tenantId", "traceId");
CREATE INDEX "Evidence_tenantId_createdAt_idx" ON "Evidence"("tenantId", "createdAt");
CREATE INDEX "Evidence_tenantId_tool_argsHash_createdAt_idx" ON "Evidence"("tenantId", "tool", "argsHash", "createdAt");
CREATE INDEX "Evidence_tenantId_idempotencyKey_idx" ON "Evidence"("tenantId", "idempotencyKey");
CREATE UNIQUE INDEX "Evidence_tenantId_seq_key" ON "Evidence"("tenantId", "seq");
CREATE TABLE "new_Approval" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "tenantId" TEXT NOT NULL,
    "tool" TEXT NOT NULL,
    "contractVersion" TEXT NOT NULL,
    "argsHash" TEXT NOT NULL,
    "callId" TEXT NOT NULL,
    "traceId" TEXT NOT NULL,
    "userId" TEXT,
    "apiKeyId" TEXT,
    "approverRoles" TEXT NOT NULL,
    "reason" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expiresAt" DATETIME NOT NULL,
    "decidedAt" DATETIME,
    "decidedBy" TEXT,
    "comment" TEXT,
    "tokenUsedAt" DATETIME,
    "sideEffectLevel" TEXT NOT NULL DEFAULT '',
    "arguments" TEXT,
    "editedArguments" TEXT,
    "originalArgsHash" TEXT,
    "approversRequired" INTEGER NOT NULL DEFAULT 1,
    "escalationLevel" INTEGER NOT NULL DEFAULT 0,
    "escalatedAt" DATETIME,
    "policyId" TEXT,
    "policyVersion" TEXT,
    "policyRule" TEXT,
    CONSTRAINT "Approval_tenantId_fkey" FOREIGN KEY ("tenantId") REFERENCES "Tenant" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);
INSERT INTO "new_Approval" ("apiKeyId", "approverRoles", "argsHash", "callId", "comment", "contractVersion", "createdAt", "decidedAt", "decidedBy", "expiresAt", "id", "reason", "status", "tenantId", "tokenUsedAt", "tool", "traceId", "userId") SELECT "apiKeyId", "approverRoles", "argsHash", "callId", "comment", "contractVersion", "createdAt", "decidedAt", "decidedBy", "expiresAt", "id", "reason", "status", "tenantId", "tokenUsedAt", "tool", "traceId", "userId" FROM "Approval";
DROP TABLE "Approval";
ALTER TABLE "new_Approval" RENAME TO "Approval";
CREATE INDEX "Approval_tenantId_status_createdAt_idx" ON "Approval"("tenantId", "status", "createdAt");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;
CREATE UNIQUE INDEX "ApprovalVote_approvalId_approverId_key" ON "ApprovalVote"("approvalId", "approverId");
CREATE INDEX "Webhook_tenantId_idx" ON "Webhook"("tenantId");
CREATE INDEX "WebhookDelivery_status_nextAttemptAt_idx" ON "WebhookDelivery"("status", "nextAttemptAt");
CREATE INDEX "WebhookDelivery_tenantId_createdAt_idx" ON "WebhookDelivery"("tenantId", "createdAt");
