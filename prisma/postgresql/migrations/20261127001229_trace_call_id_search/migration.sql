-- Edited by hand: text_pattern_ops makes the call_id prefix range of the traces search
-- (lib/traces/search-traces.ts) an index range under any database collation. The Prisma schema
-- cannot declare operator classes for one provider only, so name and columns stay as generated.
CREATE INDEX "Evidence_tenantId_callId_idx" ON "Evidence"("tenantId", "callId" text_pattern_ops);
