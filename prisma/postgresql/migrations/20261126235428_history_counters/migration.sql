CREATE TABLE "HistoryCounter" (
    "tenantId" TEXT NOT NULL,
    "series" TEXT NOT NULL,
    "scope" TEXT NOT NULL,
    "bucket" BIGINT NOT NULL,
    "count" INTEGER NOT NULL,
    "total" DOUBLE PRECISION NOT NULL,
    "lastAt" BIGINT NOT NULL,
    CONSTRAINT "HistoryCounter_pkey" PRIMARY KEY ("tenantId","series","scope","bucket")
);
ALTER TABLE "HistoryCounter" ADD CONSTRAINT "HistoryCounter_tenantId_fkey" FOREIGN KEY ("tenantId") REFERENCES "Tenant"("id") ON DELETE CASCADE ON UPDATE CASCADE;
