DROP INDEX "Evidence_tenantId_createdAt_idx";
