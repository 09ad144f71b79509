ALTER TABLE "HistoryCounter" ADD COLUMN     "cumCount" BIGINT NOT NULL DEFAULT 0,
ADD COLUMN     "cumTotal" DOUBLE PRECISION NOT NULL DEFAULT 0;

-- The running totals of the rows already counted (lib/history/history-ledger.ts).
UPDATE "HistoryCounter" h SET "cumCount" = w."cumCount", "cumTotal" = w."cumTotal"
FROM (
  SELECT "tenantId", "series", "scope", "bucket",
    SUM("count") OVER (PARTITION BY "tenantId", "series", "scope" ORDER BY "bucket") AS "cumCount",
    SUM("total") OVER (PARTITION BY "tenantId", "series", "scope" ORDER BY "bucket") AS "cumTotal"
  FROM "HistoryCounter"
) w
WHERE h."tenantId" = w."tenantId" AND h."series" = w."series" AND h."scope" = w."scope" AND h."bucket" = w."bucket";
