ALTER TABLE "ContractVersion" ADD COLUMN "source" TEXT;
ALTER TABLE "ContractVersion" ADD COLUMN "sourceFormat" TEXT;
ALTER TABLE "StudioDocumentVersion" ADD COLUMN "source" TEXT;
ALTER TABLE "StudioDocumentVersion" ADD COLUMN "sourceFormat" TEXT;
