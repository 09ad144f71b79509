CREATE TABLE "HistoryCounter" (
    "tenantId" TEXT NOT NULL,
    "series" TEXT NOT NULL,
    "scope" TEXT NOT NULL,
    "bucket" BIGINT NOT NULL,
    "count" INTEGER NOT NULL,
    "total" REAL NOT NULL,
    "lastAt" BIGINT NOT NULL,
    PRIMARY KEY ("tenantId", "series", "scope", "bucket"),
    CONSTRAINT "HistoryCounter_tenantId_fkey" FOREIGN KEY ("tenantId") REFERENCES "Tenant" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);
