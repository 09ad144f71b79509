-- Violations counted by code alone (dimension 'code', value '') and by tool or key over every code
-- ('tool_total', 'key_total', code ''), per hour and per day, from the violations themselves: the
-- statements lib/rollups/rollup-backfill.ts gives for those dimensions.
INSERT INTO "ViolationRollup" ("tenantId", "span", "dimension", "bucket", "code", "decision", "value", "count")
SELECT v."tenantId", 3600, 'code', substr(v."createdAt", 1, 13) || ':00:00.000+00:00', v."code", v."decision", '', count(*)
FROM "Violation" v
GROUP BY 1, 2, 3, 4, 5, 6, 7;
INSERT INTO "ViolationRollup" ("tenantId", "span", "dimension", "bucket", "code", "decision", "value", "count")
SELECT v."tenantId", 3600, 'tool_total', substr(v."createdAt", 1, 13) || ':00:00.000+00:00', '', v."decision", v."tool", count(*)
FROM "Violation" v
GROUP BY 1, 2, 3, 4, 5, 6, 7;
INSERT INTO "ViolationRollup" ("tenantId", "span", "dimension", "bucket", "code", "decision", "value", "count")
SELECT v."tenantId", 3600, 'key_total', substr(v."createdAt", 1, 13) || ':00:00.000+00:00', '', v."decision", coalesce(v."apiKeyId", ''), count(*)
FROM "Violation" v
GROUP BY 1, 2, 3, 4, 5, 6, 7;
INSERT INTO "ViolationRollup" ("tenantId", "span", "dimension", "bucket", "code", "decision", "value", "count")
SELECT v."tenantId", 86400, 'code', substr(v."createdAt", 1, 10) || 'T00:00:00.000+00:00', v."code", v."decision", '', count(*)
FROM "Violation" v
GROUP BY 1, 2, 3, 4, 5, 6, 7;
INSERT INTO "ViolationRollup" ("tenantId", "span", "dimension", "bucket", "code", "decision", "value", "count")
SELECT v."tenantId", 86400, 'tool_total', substr(v."createdAt", 1, 10) || 'T00:00:00.000+00:00', '', v."decision", v."tool", count(*)
FROM "Violation" v
GROUP BY 1, 2, 3, 4, 5, 6, 7;
INSERT INTO "ViolationRollup" ("tenantId", "span", "dimension", "bucket", "code", "decision", "value", "count")
SELECT v."tenantId", 86400, 'key_total', substr(v."createdAt", 1, 10) || 'T00:00:00.000+00:00', '', v."decision", coalesce(v."apiKeyId", ''), count(*)
FROM "Violation" v
GROUP BY 1, 2, 3, 4, 5, 6, 7;
