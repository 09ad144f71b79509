PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_HistoryCounter" (
    "tenantId" TEXT NOT NULL,
    "series" TEXT NOT NULL,
    "scope" TEXT NOT NULL,
    "bucket" BIGINT NOT NULL,
    "count" INTEGER NOT NULL,
    "total" REAL NOT NULL,
    "lastAt" BIGINT NOT NULL,
    "cumCount" BIGINT NOT NULL DEFAULT 0,
    "cumTotal" REAL NOT NULL DEFAULT 0,
    PRIMARY KEY ("tenantId", "series", "scope", "bucket"),
    CONSTRAINT "HistoryCounter_tenantId_fkey" FOREIGN KEY ("tenantId") REFERENCES "Tenant" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);
-- The running totals of the rows already counted (lib/history/history-ledger.ts).
INSERT INTO "new_HistoryCounter" ("bucket", "count", "lastAt", "scope", "series", "tenantId", "total", "cumCount", "cumTotal")
SELECT "bucket", "count", "lastAt", "scope", "series", "tenantId", "total",
  SUM("count") OVER (PARTITION BY "tenantId", "series", "scope" ORDER BY "bucket"),
  SUM("total") OVER (PARTITION BY "tenantId", "series", "scope" ORDER BY "bucket")
FROM "HistoryCounter";
DROP TABLE "HistoryCounter";
ALTER TABLE "new_HistoryCounter" RENAME TO "HistoryCounter";
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;
