-- Written by hand (Prisma sees no schema change: the columns stay DATETIME). SQLite stores every
-- DateTime as milliseconds since the epoch from here on (lib/db/adapter.ts, timestampFormat
-- unixepoch-ms): the ISO-8601 text stored until now becomes that integer, exactly (julianday
-- keeps the milliseconds; text from a column's DEFAULT CURRENT_TIMESTAMP converts as UTC).
-- Each table is rewritten once, only the rows that hold text. On a large database this takes a
-- while (docs/operations.md, "Upgrading a large database").
UPDATE "Tenant" SET
    "createdAt" = CASE WHEN typeof("createdAt") = 'text' THEN CAST(round((julianday("createdAt") - 2440587.5) * 86400000) AS INTEGER) ELSE "createdAt" END
  WHERE typeof("createdAt") = 'text';
UPDATE "Membership" SET
    "createdAt" = CASE WHEN typeof("createdAt") = 'text' THEN CAST(round((julianday("createdAt") - 2440587.5) * 86400000) AS INTEGER) ELSE "createdAt" END
  WHERE typeof("createdAt") = 'text';
UPDATE "Invitation" SET
    "createdAt" = CASE WHEN typeof("createdAt") = 'text' THEN CAST(round((julianday("createdAt") - 2440587.5) * 86400000) AS INTEGER) ELSE "createdAt" END,
    "expiresAt" = CASE WHEN typeof("expiresAt") = 'text' THEN CAST(round((julianday("expiresAt") - 2440587.5) * 86400000) AS INTEGER) ELSE "expiresAt" END,
    "acceptedAt" = CASE WHEN typeof("acceptedAt") = 'text' THEN CAST(round((julianday("acceptedAt") - 2440587.5) * 86400000) AS INTEGER) ELSE "acceptedAt" END,
    "revokedAt" = CASE WHEN typeof("revokedAt") = 'text' THEN CAST(round((julianday("revokedAt") - 2440587.5) * 86400000) AS INTEGER) ELSE "revokedAt" END
  WHERE typeof("createdAt") = 'text' OR typeof("expiresAt") = 'text' OR typeof("acceptedAt") = 'text' OR typeof("revokedAt") = 'text';
UPDATE "ApiKey" SET
    "createdAt" = CASE WHEN typeof("createdAt") = 'text' THEN CAST(round((julianday("createdAt") - 2440587.5) * 86400000) AS INTEGER) ELSE "createdAt" END,
    "lastUsedAt" = CASE WHEN typeof("lastUsedAt") = 'text' THEN CAST(round((julianday("lastUsedAt") - 2440587.5) * 86400000) AS INTEGER) ELSE "lastUsedAt" END,
    "revokedAt" = CASE WHEN typeof("revokedAt") = 'text' THEN CAST(round((julianday("revokedAt") - 2440587.5) * 86400000) AS INTEGER) ELSE "revokedAt" END
  WHERE typeof("createdAt") = 'text' OR typeof("lastUsedAt") = 'text' OR typeof("revokedAt") = 'text';
UPDATE "Setting" SET
    "createdAt" = CASE WHEN typeof("createdAt") = 'text' THEN CAST(round((julianday("createdAt") - 2440587.5) * 86400000) AS INTEGER) ELSE "createdAt" END
  WHERE typeof("createdAt") = 'text';
UPDATE "ChangeCounter" SET
    "updatedAt" = CASE WHEN typeof("updatedAt") = 'text' THEN CAST(round((julianday("updatedAt") - 2440587.5) * 86400000) AS INTEGER) ELSE "updatedAt" END
  WHERE typeof("updatedAt") = 'text';
UPDATE "User" SET
    "createdAt" = CASE WHEN typeof("createdAt") = 'text' THEN CAST(round((julianday("createdAt") - 2440587.5) * 86400000) AS INTEGER) ELSE "createdAt" END,
    "updatedAt" = CASE WHEN typeof("updatedAt") = 'text' THEN CAST(round((julianday("updatedAt") - 2440587.5) * 86400000) AS INTEGER) ELSE "updatedAt" END
  WHERE typeof("createdAt") = 'text' OR typeof("updatedAt") = 'text';
UPDATE "Session" SET
    "expiresAt" = CASE WHEN typeof("expiresAt") = 'text' THEN CAST(round((julianday("expiresAt") - 2440587.5) * 86400000) AS INTEGER) ELSE "expiresAt" END,
    "createdAt" = CASE WHEN typeof("createdAt") = 'text' THEN CAST(round((julianday("createdAt") - 2440587.5) * 86400000) AS INTEGER) ELSE "createdAt" END,
    "updatedAt" = CASE WHEN typeof("updatedAt") = 'text' THEN CAST(round((julianday("updatedAt") - 2440587.5) * 86400000) AS INTEGER) ELSE "updatedAt" END
  WHERE typeof("expiresAt") = 'text' OR typeof("createdAt") = 'text' OR typeof("updatedAt") = 'text';
UPDATE "Account" SET
    "accessTokenExpiresAt" = CASE WHEN typeof("accessTokenExpiresAt") = 'text' THEN CAST(round((julianday("accessTokenExpiresAt") - 2440587.5) * 86400000) AS INTEGER) ELSE "accessTokenExpiresAt" END,
    "refreshTokenExpiresAt" = CASE WHEN typeof("refreshTokenExpiresAt") = 'text' THEN CAST(round((julianday("refreshTokenExpiresAt") - 2440587.5) * 86400000) AS INTEGER) ELSE "refreshTokenExpiresAt" END,
    "createdAt" = CASE WHEN typeof("createdAt") = 'text' THEN CAST(round((julianday("createdAt") - 2440587.5) * 86400000) AS INTEGER) ELSE "createdAt" END,
    "updatedAt" = CASE WHEN typeof("updatedAt") = 'text' THEN CAST(round((julianday("updatedAt") - 2440587.5) * 86400000) AS INTEGER) ELSE "updatedAt" END
  WHERE typeof("accessTokenExpiresAt") = 'text' OR typeof("refreshTokenExpiresAt") = 'text' OR typeof("createdAt") = 'text' OR typeof("updatedAt") = 'text';
UPDATE "Verification" SET
    "expiresAt" = CASE WHEN typeof("expiresAt") = 'text' THEN CAST(round((julianday("expiresAt") - 2440587.5) * 86400000) AS INTEGER) ELSE "expiresAt" END,
    "createdAt" = CASE WHEN typeof("createdAt") = 'text' THEN CAST(round((julianday("createdAt") - 2440587.5) * 86400000) AS INTEGER) ELSE "createdAt" END,
    "updatedAt" = CASE WHEN typeof("updatedAt") = 'text' THEN CAST(round((julianday("updatedAt") - 2440587.5) * 86400000) AS INTEGER) ELSE "updatedAt" END
  WHERE typeof("expiresAt") = 'text' OR typeof("createdAt") = 'text' OR typeof("updatedAt") = 'text';
UPDATE "Contract" SET
    "deprecatedAt" = CASE WHEN typeof("deprecatedAt") = 'text' THEN CAST(round((julianday("deprecatedAt") - 2440587.5) * 86400000) AS INTEGER) ELSE "deprecatedAt" END,
    "createdAt" = CASE WHEN typeof("createdAt") = 'text' THEN CAST(round((julianday("createdAt") - 2440587.5) * 86400000) AS INTEGER) ELSE "createdAt" END,
    "updatedAt" = CASE WHEN typeof("updatedAt") = 'text' THEN CAST(round((julianday("updatedAt") - 2440587.5) * 86400000) AS INTEGER) ELSE "updatedAt" END
  WHERE typeof("deprecatedAt") = 'text' OR typeof("createdAt") = 'text' OR typeof("updatedAt") = 'text';
UPDATE "ContractVersion" SET
    "createdAt" = CASE WHEN typeof("createdAt") = 'text' THEN CAST(round((julianday("createdAt") - 2440587.5) * 86400000) AS INTEGER) ELSE "createdAt" END,
    "updatedAt" = CASE WHEN typeof("updatedAt") = 'text' THEN CAST(round((julianday("updatedAt") - 2440587.5) * 86400000) AS INTEGER) ELSE "updatedAt" END,
    "publishedAt" = CASE WHEN typeof("publishedAt") = 'text' THEN CAST(round((julianday("publishedAt") - 2440587.5) * 86400000) AS INTEGER) ELSE "publishedAt" END,
    "deprecatedAt" = CASE WHEN typeof("deprecatedAt") = 'text' THEN CAST(round((julianday("deprecatedAt") - 2440587.5) * 86400000) AS INTEGER) ELSE "deprecatedAt" END
  WHERE typeof("createdAt") = 'text' OR typeof("updatedAt") = 'text' OR typeof("publishedAt") = 'text' OR typeof("deprecatedAt") = 'text';
UPDATE "StudioDocument" SET
    "createdAt" = CASE WHEN typeof("createdAt") = 'text' THEN CAST(round((julianday("createdAt") - 2440587.5) * 86400000) AS INTEGER) ELSE "createdAt" END,
    "updatedAt" = CASE WHEN typeof("updatedAt") = 'text' THEN CAST(round((julianday("updatedAt") - 2440587.5) * 86400000) AS INTEGER) ELSE "updatedAt" END
  WHERE typeof("createdAt") = 'text' OR typeof("updatedAt") = 'text';
UPDATE "StudioDocumentVersion" SET
    "createdAt" = CASE WHEN typeof("createdAt") = 'text' THEN CAST(round((julianday("createdAt") - 2440587.5) * 86400000) AS INTEGER) ELSE "createdAt" END,
    "updatedAt" = CASE WHEN typeof("updatedAt") = 'text' THEN CAST(round((julianday("updatedAt") - 2440587.5) * 86400000) AS INTEGER) ELSE "updatedAt" END,
    "publishedAt" = CASE WHEN typeof("publishedAt") = 'text' THEN CAST(round((julianday("publishedAt") - 2440587.5) * 86400000) AS INTEGER) ELSE "publishedAt" END
  WHERE typeof("createdAt") = 'text' OR typeof("updatedAt") = 'text' OR typeof("publishedAt") = 'text';
UPDATE "Evidence" SET
    "createdAt" = CASE WHEN typeof("createdAt") = 'text' THEN CAST(round((julianday("createdAt") - 2440587.5) * 86400000) AS INTEGER) ELSE "createdAt" END
  WHERE typeof("createdAt") = 'text';
UPDATE "EvidenceSequence" SET
    "createdAt" = CASE WHEN typeof("createdAt") = 'text' THEN CAST(round((julianday("createdAt") - 2440587.5) * 86400000) AS INTEGER) ELSE "createdAt" END
  WHERE typeof("createdAt") = 'text';
UPDATE "Violation" SET
    "createdAt" = CASE WHEN typeof("createdAt") = 'text' THEN CAST(round((julianday("createdAt") - 2440587.5) * 86400000) AS INTEGER) ELSE "createdAt" END
  WHERE typeof("createdAt") = 'text';
UPDATE "EvidenceCheckpoint" SET
    "verifiedAt" = CASE WHEN typeof("verifiedAt") = 'text' THEN CAST(round((julianday("verifiedAt") - 2440587.5) * 86400000) AS INTEGER) ELSE "verifiedAt" END
  WHERE typeof("verifiedAt") = 'text';
UPDATE "EvidenceVerificationRun" SET
    "leaseUntil" = CASE WHEN typeof("leaseUntil") = 'text' THEN CAST(round((julianday("leaseUntil") - 2440587.5) * 86400000) AS INTEGER) ELSE "leaseUntil" END,
    "createdAt" = CASE WHEN typeof("createdAt") = 'text' THEN CAST(round((julianday("createdAt") - 2440587.5) * 86400000) AS INTEGER) ELSE "createdAt" END,
    "startedAt" = CASE WHEN typeof("startedAt") = 'text' THEN CAST(round((julianday("startedAt") - 2440587.5) * 86400000) AS INTEGER) ELSE "startedAt" END,
    "finishedAt" = CASE WHEN typeof("finishedAt") = 'text' THEN CAST(round((julianday("finishedAt") - 2440587.5) * 86400000) AS INTEGER) ELSE "finishedAt" END
  WHERE typeof("leaseUntil") = 'text' OR typeof("createdAt") = 'text' OR typeof("startedAt") = 'text' OR typeof("finishedAt") = 'text';
UPDATE "Approval" SET
    "createdAt" = CASE WHEN typeof("createdAt") = 'text' THEN CAST(round((julianday("createdAt") - 2440587.5) * 86400000) AS INTEGER) ELSE "createdAt" END,
    "expiresAt" = CASE WHEN typeof("expiresAt") = 'text' THEN CAST(round((julianday("expiresAt") - 2440587.5) * 86400000) AS INTEGER) ELSE "expiresAt" END,
    "decidedAt" = CASE WHEN typeof("decidedAt") = 'text' THEN CAST(round((julianday("decidedAt") - 2440587.5) * 86400000) AS INTEGER) ELSE "decidedAt" END,
    "tokenUsedAt" = CASE WHEN typeof("tokenUsedAt") = 'text' THEN CAST(round((julianday("tokenUsedAt") - 2440587.5) * 86400000) AS INTEGER) ELSE "tokenUsedAt" END,
    "escalatedAt" = CASE WHEN typeof("escalatedAt") = 'text' THEN CAST(round((julianday("escalatedAt") - 2440587.5) * 86400000) AS INTEGER) ELSE "escalatedAt" END
  WHERE typeof("createdAt") = 'text' OR typeof("expiresAt") = 'text' OR typeof("decidedAt") = 'text' OR typeof("tokenUsedAt") = 'text' OR typeof("escalatedAt") = 'text';
UPDATE "ApprovalVote" SET
    "createdAt" = CASE WHEN typeof("createdAt") = 'text' THEN CAST(round((julianday("createdAt") - 2440587.5) * 86400000) AS INTEGER) ELSE "createdAt" END
  WHERE typeof("createdAt") = 'text';
UPDATE "Confirmation" SET
    "createdAt" = CASE WHEN typeof("createdAt") = 'text' THEN CAST(round((julianday("createdAt") - 2440587.5) * 86400000) AS INTEGER) ELSE "createdAt" END,
    "expiresAt" = CASE WHEN typeof("expiresAt") = 'text' THEN CAST(round((julianday("expiresAt") - 2440587.5) * 86400000) AS INTEGER) ELSE "expiresAt" END,
    "usedAt" = CASE WHEN typeof("usedAt") = 'text' THEN CAST(round((julianday("usedAt") - 2440587.5) * 86400000) AS INTEGER) ELSE "usedAt" END
  WHERE typeof("createdAt") = 'text' OR typeof("expiresAt") = 'text' OR typeof("usedAt") = 'text';
UPDATE "Webhook" SET
    "createdAt" = CASE WHEN typeof("createdAt") = 'text' THEN CAST(round((julianday("createdAt") - 2440587.5) * 86400000) AS INTEGER) ELSE "createdAt" END,
    "disabledAt" = CASE WHEN typeof("disabledAt") = 'text' THEN CAST(round((julianday("disabledAt") - 2440587.5) * 86400000) AS INTEGER) ELSE "disabledAt" END
  WHERE typeof("createdAt") = 'text' OR typeof("disabledAt") = 'text';
UPDATE "WebhookDelivery" SET
    "nextAttemptAt" = CASE WHEN typeof("nextAttemptAt") = 'text' THEN CAST(round((julianday("nextAttemptAt") - 2440587.5) * 86400000) AS INTEGER) ELSE "nextAttemptAt" END,
    "createdAt" = CASE WHEN typeof("createdAt") = 'text' THEN CAST(round((julianday("createdAt") - 2440587.5) * 86400000) AS INTEGER) ELSE "createdAt" END,
    "deliveredAt" = CASE WHEN typeof("deliveredAt") = 'text' THEN CAST(round((julianday("deliveredAt") - 2440587.5) * 86400000) AS INTEGER) ELSE "deliveredAt" END
  WHERE typeof("nextAttemptAt") = 'text' OR typeof("createdAt") = 'text' OR typeof("deliveredAt") = 'text';
UPDATE "McpServer" SET
    "createdAt" = CASE WHEN typeof("createdAt") = 'text' THEN CAST(round((julianday("createdAt") - 2440587.5) * 86400000) AS INTEGER) ELSE "createdAt" END,
    "lastSeenAt" = CASE WHEN typeof("lastSeenAt") = 'text' THEN CAST(round((julianday("lastSeenAt") - 2440587.5) * 86400000) AS INTEGER) ELSE "lastSeenAt" END
  WHERE typeof("createdAt") = 'text' OR typeof("lastSeenAt") = 'text';
UPDATE "McpTool" SET
    "pinnedAt" = CASE WHEN typeof("pinnedAt") = 'text' THEN CAST(round((julianday("pinnedAt") - 2440587.5) * 86400000) AS INTEGER) ELSE "pinnedAt" END,
    "driftSeenAt" = CASE WHEN typeof("driftSeenAt") = 'text' THEN CAST(round((julianday("driftSeenAt") - 2440587.5) * 86400000) AS INTEGER) ELSE "driftSeenAt" END
  WHERE typeof("pinnedAt") = 'text' OR typeof("driftSeenAt") = 'text';
-- The rollups' hours and buckets computed again from the converted rows, as the migration that
-- added them did (lib/rollups/rollup-backfill.ts), now with integer arithmetic.
DELETE FROM "EvidenceRollup";
DELETE FROM "ViolationRollup";
INSERT INTO "EvidenceRollup" ("tenantId", "hour", "kind", "decision", "records", "shadowDiffers", "policyRefusals")
SELECT e."tenantId", (e."createdAt" / 3600000) * 3600000, e."kind", e."decision", count(*),
  sum(CASE WHEN e."shadowDiffers" = 1 THEN 1 ELSE 0 END),
  sum(CASE WHEN e."decision" = 'deny' AND e."id" IN (SELECT "evidenceId" FROM "Violation" WHERE "decision" = 'deny' AND "code" IN ('AXAG_SCOPE_VIOLATION', 'AXAG_TENANT_BOUNDARY', 'AXAG_ROLE_INSUFFICIENT', 'AXAG_APPROVAL_DENIED', 'AXAG_TOOL_DEFINITION_CHANGED', 'AXAG_TOOL_NOT_ALLOWED', 'AXAG_SIDE_EFFECT_CEILING', 'AXAG_ARGUMENT_NOT_ALLOWED', 'AXAG_POLICY_DENIED', 'AXAG_POLICY_EVALUATION_FAILED', 'AXAG_RATE_LIMITED', 'AXAG_BUDGET_EXCEEDED', 'AXAG_POLICY_TRANSFORM_INVALID')) THEN 1 ELSE 0 END)
FROM "Evidence" e
GROUP BY 1, 2, 3, 4;
INSERT INTO "ViolationRollup" ("tenantId", "span", "dimension", "bucket", "code", "decision", "value", "count")
SELECT v."tenantId", 3600, 'tool', (v."createdAt" / 3600000) * 3600000, v."code", v."decision", v."tool", count(*)
FROM "Violation" v
GROUP BY 1, 2, 3, 4, 5, 6, 7;
INSERT INTO "ViolationRollup" ("tenantId", "span", "dimension", "bucket", "code", "decision", "value", "count")
SELECT v."tenantId", 3600, 'key', (v."createdAt" / 3600000) * 3600000, v."code", v."decision", coalesce(v."apiKeyId", ''), count(*)
FROM "Violation" v
GROUP BY 1, 2, 3, 4, 5, 6, 7;
INSERT INTO "ViolationRollup" ("tenantId", "span", "dimension", "bucket", "code", "decision", "value", "count")
SELECT v."tenantId", 3600, 'code', (v."createdAt" / 3600000) * 3600000, v."code", v."decision", '', count(*)
FROM "Violation" v
GROUP BY 1, 2, 3, 4, 5, 6, 7;
INSERT INTO "ViolationRollup" ("tenantId", "span", "dimension", "bucket", "code", "decision", "value", "count")
SELECT v."tenantId", 3600, 'tool_total', (v."createdAt" / 3600000) * 3600000, '', v."decision", v."tool", count(*)
FROM "Violation" v
GROUP BY 1, 2, 3, 4, 5, 6, 7;
INSERT INTO "ViolationRollup" ("tenantId", "span", "dimension", "bucket", "code", "decision", "value", "count")
SELECT v."tenantId", 3600, 'key_total', (v."createdAt" / 3600000) * 3600000, '', v."decision", coalesce(v."apiKeyId", ''), count(*)
FROM "Violation" v
GROUP BY 1, 2, 3, 4, 5, 6, 7;
INSERT INTO "ViolationRollup" ("tenantId", "span", "dimension", "bucket", "code", "decision", "value", "count")
SELECT v."tenantId", 86400, 'tool', (v."createdAt" / 86400000) * 86400000, v."code", v."decision", v."tool", count(*)
FROM "Violation" v
GROUP BY 1, 2, 3, 4, 5, 6, 7;
INSERT INTO "ViolationRollup" ("tenantId", "span", "dimension", "bucket", "code", "decision", "value", "count")
SELECT v."tenantId", 86400, 'key', (v."createdAt" / 86400000) * 86400000, v."code", v."decision", coalesce(v."apiKeyId", ''), count(*)
FROM "Violation" v
GROUP BY 1, 2, 3, 4, 5, 6, 7;
INSERT INTO "ViolationRollup" ("tenantId", "span", "dimension", "bucket", "code", "decision", "value", "count")
SELECT v."tenantId", 86400, 'code', (v."createdAt" / 86400000) * 86400000, v."code", v."decision", '', count(*)
FROM "Violation" v
GROUP BY 1, 2, 3, 4, 5, 6, 7;
INSERT INTO "ViolationRollup" ("tenantId", "span", "dimension", "bucket", "code", "decision", "value", "count")
SELECT v."tenantId", 86400, 'tool_total', (v."createdAt" / 86400000) * 86400000, '', v."decision", v."tool", count(*)
FROM "Violation" v
GROUP BY 1, 2, 3, 4, 5, 6, 7;
INSERT INTO "ViolationRollup" ("tenantId", "span", "dimension", "bucket", "code", "decision", "value", "count")
SELECT v."tenantId", 86400, 'key_total', (v."createdAt" / 86400000) * 86400000, '', v."decision", coalesce(v."apiKeyId", ''), count(*)
FROM "Violation" v
GROUP BY 1, 2, 3, 4, 5, 6, 7;
