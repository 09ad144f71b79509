-- Edited by hand to keep the contract hash of every record: each hash is stored once, in
-- EvidenceContractHash, and a record names it by key. And a record names its tenant by its key
-- alone (every record has had one since 20261129052152_evidence_tenant_key), the cascade from a
-- deleted tenant running through TenantKey. The UPDATE rewrites every row: on a large database,
-- docs/operations.md ("Upgrading a large database").
CREATE TABLE "EvidenceContractHash" (
    "key" SERIAL NOT NULL,
    "hash" BYTEA NOT NULL,
    CONSTRAINT "EvidenceContractHash_pkey" PRIMARY KEY ("key")
);
CREATE UNIQUE INDEX "EvidenceContractHash_hash_key" ON "EvidenceContractHash"("hash");
INSERT INTO "EvidenceContractHash" ("hash")
SELECT "contractHash" FROM "Evidence" WHERE "contractHash" IS NOT NULL GROUP BY "contractHash" ORDER BY min("createdAt"), "contractHash";
ALTER TABLE "Evidence" ADD COLUMN "contractHashKey" INTEGER;
UPDATE "Evidence" e SET "contractHashKey" = c."key" FROM "EvidenceContractHash" c WHERE c."hash" = e."contractHash";
ALTER TABLE "Evidence" DROP CONSTRAINT "Evidence_tenantId_fkey";
ALTER TABLE "Evidence" DROP COLUMN "contractHash",
DROP COLUMN "tenantId",
ALTER COLUMN "tenantKey" DROP DEFAULT;
ALTER TABLE "Evidence" ADD CONSTRAINT "Evidence_contractHashKey_fkey" FOREIGN KEY ("contractHashKey") REFERENCES "EvidenceContractHash"("key") ON DELETE RESTRICT ON UPDATE RESTRICT;
ALTER TABLE "Evidence" ADD CONSTRAINT "Evidence_tenantKey_fkey" FOREIGN KEY ("tenantKey") REFERENCES "TenantKey"("key") ON DELETE CASCADE ON UPDATE CASCADE;
