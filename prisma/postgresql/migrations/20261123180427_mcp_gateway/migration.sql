ALTER TABLE "Evidence" ADD COLUMN     "mcpServer" TEXT;
CREATE TABLE "McpServer" (
    "id" TEXT NOT NULL,
    "tenantId" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "transport" TEXT NOT NULL,
    "url" TEXT,
    "authHeaderName" TEXT,
    "authHeaderCipher" TEXT,
    "listUnpublished" BOOLEAN NOT NULL DEFAULT false,
    "autoAcceptCosmetic" BOOLEAN NOT NULL DEFAULT false,
    "approvalWaitSeconds" INTEGER NOT NULL DEFAULT 30,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "lastSeenAt" TIMESTAMP(3),
    CONSTRAINT "McpServer_pkey" PRIMARY KEY ("id")
);
CREATE TABLE "McpTool" (
    "id" TEXT NOT NULL,
    "tenantId" TEXT NOT NULL,
    "serverId" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "contractId" TEXT NOT NULL,
    "pinnedHash" TEXT NOT NULL,
    "pinnedDefinition" TEXT NOT NULL,
    "pinnedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "importNotes" TEXT NOT NULL DEFAULT '[]',
    "driftHash" TEXT,
    "driftDefinition" TEXT,
    "driftClasses" TEXT,
    "driftSeenAt" TIMESTAMP(3),
    CONSTRAINT "McpTool_pkey" PRIMARY KEY ("id")
);
CREATE UNIQUE INDEX "McpServer_tenantId_name_key" ON "McpServer"("tenantId", "name");
CREATE INDEX "McpTool_tenantId_contractId_idx" ON "McpTool"("tenantId", "contractId");
CREATE UNIQUE INDEX "McpTool_serverId_name_key" ON "McpTool"("serverId", "name");
ALTER TABLE "McpServer" ADD CONSTRAINT "McpServer_tenantId_fkey" FOREIGN KEY ("tenantId") REFERENCES "Tenant"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "McpTool" ADD CONSTRAINT "McpTool_serverId_fkey" FOREIGN KEY ("serverId") REFERENCES "McpServer"("id") ON DELETE CASCADE ON UPDATE CASCADE;
