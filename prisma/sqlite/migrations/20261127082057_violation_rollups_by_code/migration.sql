-- Violations counted by code alone (dimension 'code', value ''), per hour and per day, from the
-- violations themselves: the statements lib/rollups/rollup-backfill.ts gives for that dimension.
INSERT INTO "ViolationRollup" ("tenantId", "span", "dimension", "bucket", "code", "decision", "value", "count")
SELECT v."tenantId", 3600, 'code', substr(v."createdAt", 1, 13) || ':00:00.000+00:00', v."code", v."decision", '', count(*)
FROM "Violation" v
GROUP BY 1, 2, 3, 4, 5, 6, 7;
INSERT INTO "ViolationRollup" ("tenantId", "span", "dimension", "bucket", "code", "decision", "value", "count")
SELECT v."tenantId", 86400, 'code', substr(v."createdAt", 1, 10) || 'T00:00:00.000+00:00', v."code", v."decision", '', count(*)
FROM "Violation" v
GROUP BY 1, 2, 3, 4, 5, 6, 7;
