ALTER TABLE "Evidence" ADD COLUMN     "executionMs" DOUBLE PRECISION,
ADD COLUMN     "policy" TEXT,
ADD COLUMN     "policyId" TEXT,
ADD COLUMN     "policyRule" TEXT,
ADD COLUMN     "policyVersion" TEXT,
ADD COLUMN     "shadowDiffers" BOOLEAN NOT NULL DEFAULT false;
ALTER TABLE "Approval" ADD COLUMN     "approversRequired" INTEGER NOT NULL DEFAULT 1,
ADD COLUMN     "arguments" TEXT,
ADD COLUMN     "editedArguments" TEXT,
ADD COLUMN     "escalatedAt" TIMESTAMP(3),
ADD COLUMN     "escalationLevel" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "originalArgsHash" TEXT,
ADD COLUMN     "policyId" TEXT,
ADD COLUMN     "policyRule" TEXT,
ADD COLUMN     "policyVersion" TEXT,
ADD COLUMN     "sideEffectLevel" TEXT NOT NULL DEFAULT '';
CREATE TABLE "ApprovalVote" (
    "id" TEXT NOT NULL,
    "tenantId" TEXT NOT NULL,
    "approvalId" TEXT NOT NULL,
    "approverId" TEXT NOT NULL,
    "decision" TEXT NOT NULL,
    "comment" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "ApprovalVote_pkey" PRIMARY KEY ("id")
);
CREATE TABLE "Webhook" (
    "id" TEXT NOT NULL,
    "tenantId" TEXT NOT NULL,
    "url" TEXT NOT NULL,
    "events" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "disabledAt" TIMESTAMP(3),
    CONSTRAINT "Webhook_pkey" PRIMARY KEY ("id")
);
CREATE TABLE "WebhookDelivery" (
    "id" TEXT NOT NULL,
    "tenantId" TEXT NOT NULL,
    "webhookId" TEXT NOT NULL,
    "event" TEXT NOT NULL,
    "payload" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'pending',
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "nextAttemptAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "lastError" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "deliveredAt" TIMESTAMP(3),
    CONSTRAINT "WebhookDelivery_pkey" PRIMARY KEY ("id")
);
CREATE UNIQUE INDEX "ApprovalVote_approvalId_approverId_key" ON "ApprovalVote"("approvalId", "approverId");
CREATE INDEX "Webhook_tenantId_idx" ON "Webhook"("tenantId");
CREATE INDEX "WebhookDelivery_status_nextAttemptAt_idx" ON "WebhookDelivery"("status", "nextAttemptAt");
CREATE INDEX "WebhookDelivery_tenantId_createdAt_idx" ON "WebhookDelivery"("tenantId", "createdAt");
ALTER TABLE "ApprovalVote" ADD CONSTRAINT "ApprovalVote_approvalId_fkey" FOREIGN KEY ("approvalId") REFERENCES "Approval"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "Webhook" ADD CONSTRAINT "Webhook_tenantId_fkey" FOREIGN KEY ("tenantId") REFERENCES "Tenant"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "WebhookDelivery" ADD CONSTRAINT "WebhookDelivery_webhookId_fkey" FOREIGN KEY ("webhookId") REFERENCES "Webhook"("id") ON DELETE CASCADE ON UPDATE CASCADE;
