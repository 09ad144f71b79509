CREATE TABLE "EvidenceRollup" (
    "tenantId" TEXT NOT NULL,
    "hour" TIMESTAMP(3) NOT NULL,
    "kind" TEXT NOT NULL,
    "decision" TEXT NOT NULL,
    "records" INTEGER NOT NULL,
    "shadowDiffers" INTEGER NOT NULL,
    "policyRefusals" INTEGER NOT NULL,
    CONSTRAINT "EvidenceRollup_pkey" PRIMARY KEY ("tenantId","hour","kind","decision")
);
CREATE TABLE "ViolationRollup" (
    "tenantId" TEXT NOT NULL,
    "span" INTEGER NOT NULL,
    "dimension" TEXT NOT NULL,
    "bucket" TIMESTAMP(3) NOT NULL,
    "code" TEXT NOT NULL,
    "decision" TEXT NOT NULL,
    "value" TEXT NOT NULL,
    "count" INTEGER NOT NULL,
    CONSTRAINT "ViolationRollup_pkey" PRIMARY KEY ("tenantId","span","dimension","bucket","code","decision","value")
);
ALTER TABLE "EvidenceRollup" ADD CONSTRAINT "EvidenceRollup_tenantId_fkey" FOREIGN KEY ("tenantId") REFERENCES "Tenant"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "ViolationRollup" ADD CONSTRAINT "ViolationRollup_tenantId_fkey" FOREIGN KEY ("tenantId") REFERENCES "Tenant"("id") ON DELETE CASCADE ON UPDATE CASCADE;
-- The rollups of the evidence already written (lib/rollups/rollup-backfill.ts).
INSERT INTO "EvidenceRollup" ("tenantId", "hour", "kind", "decision", "records", "shadowDiffers", "policyRefusals")
SELECT e."tenantId", date_trunc('hour', e."createdAt"), e."kind", e."decision", count(*),
  sum(CASE WHEN e."shadowDiffers" THEN 1 ELSE 0 END),
  sum(CASE WHEN e."decision" = 'deny' AND e."id" IN (SELECT "evidenceId" FROM "Violation" WHERE "decision" = 'deny' AND "code" IN ('AXAG_SCOPE_VIOLATION', 'AXAG_TENANT_BOUNDARY', 'AXAG_ROLE_INSUFFICIENT', 'AXAG_APPROVAL_DENIED', 'AXAG_TOOL_DEFINITION_CHANGED', 'AXAG_TOOL_NOT_ALLOWED', 'AXAG_SIDE_EFFECT_CEILING', 'AXAG_ARGUMENT_NOT_ALLOWED', 'AXAG_POLICY_DENIED', 'AXAG_POLICY_EVALUATION_FAILED', 'AXAG_RATE_LIMITED', 'AXAG_BUDGET_EXCEEDED', 'AXAG_POLICY_TRANSFORM_INVALID')) THEN 1 ELSE 0 END)
FROM "Evidence" e
GROUP BY 1, 2, 3, 4;
INSERT INTO "ViolationRollup" ("tenantId", "span", "dimension", "bucket", "code", "decision", "value", "count")
SELECT v."tenantId", 3600, 'tool', date_trunc('hour', v."createdAt"), v."code", v."decision", v."tool", count(*)
FROM "Violation" v
GROUP BY 1, 2, 3, 4, 5, 6, 7;
INSERT INTO "ViolationRollup" ("tenantId", "span", "dimension", "bucket", "code", "decision", "value", "count")
SELECT v."tenantId", 3600, 'key', date_trunc('hour', v."createdAt"), v."code", v."decision", coalesce(v."apiKeyId", ''), count(*)
FROM "Violation" v
GROUP BY 1, 2, 3, 4, 5, 6, 7;
INSERT INTO "ViolationRollup" ("tenantId", "span", "dimension", "bucket", "code", "decision", "value", "count")
SELECT v."tenantId", 86400, 'tool', date_trunc('day', v."createdAt"), v."code", v."decision", v."tool", count(*)
FROM "Violation" v
GROUP BY 1, 2, 3, 4, 5, 6, 7;
INSERT INTO "ViolationRollup" ("tenantId", "span", "dimension", "bucket", "code", "decision", "value", "count")
SELECT v."tenantId", 86400, 'key', date_trunc('day', v."createdAt"), v."code", v."decision", coalesce(v."apiKeyId", ''), count(*)
FROM "Violation" v
GROUP BY 1, 2, 3, 4, 5, 6, 7;
