ALTER TABLE "ContractVersion" ADD COLUMN     "source" TEXT,
ADD COLUMN     "sourceFormat" TEXT;
ALTER TABLE "StudioDocumentVersion" ADD COLUMN     "source" TEXT,
ADD COLUMN     "sourceFormat" TEXT;
