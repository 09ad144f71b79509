CREATE TABLE "StudioDocument" (
    "id" TEXT NOT NULL,
    "tenantId" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "description" TEXT,
    "latestVersionId" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,
    CONSTRAINT "StudioDocument_pkey" PRIMARY KEY ("id")
);
CREATE TABLE "StudioDocumentVersion" (
    "id" TEXT NOT NULL,
    "tenantId" TEXT NOT NULL,
    "documentId" TEXT NOT NULL,
    "version" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "document" TEXT NOT NULL,
    "contentHash" TEXT NOT NULL,
    "changeNote" TEXT,
    "createdById" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,
    "publishedAt" TIMESTAMP(3),
    "publishedBy" TEXT,
    CONSTRAINT "StudioDocumentVersion_pkey" PRIMARY KEY ("id")
);
CREATE UNIQUE INDEX "StudioDocument_latestVersionId_key" ON "StudioDocument"("latestVersionId");
CREATE UNIQUE INDEX "StudioDocument_tenantId_kind_name_key" ON "StudioDocument"("tenantId", "kind", "name");
CREATE INDEX "StudioDocumentVersion_tenantId_status_idx" ON "StudioDocumentVersion"("tenantId", "status");
CREATE UNIQUE INDEX "StudioDocumentVersion_documentId_version_key" ON "StudioDocumentVersion"("documentId", "version");
ALTER TABLE "StudioDocument" ADD CONSTRAINT "StudioDocument_tenantId_fkey" FOREIGN KEY ("tenantId") REFERENCES "Tenant"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "StudioDocument" ADD CONSTRAINT "StudioDocument_latestVersionId_fkey" FOREIGN KEY ("latestVersionId") REFERENCES "StudioDocumentVersion"("id") ON DELETE SET NULL ON UPDATE CASCADE;
ALTER TABLE "StudioDocumentVersion" ADD CONSTRAINT "StudioDocumentVersion_documentId_fkey" FOREIGN KEY ("documentId") REFERENCES "StudioDocument"("id") ON DELETE CASCADE ON UPDATE CASCADE;
