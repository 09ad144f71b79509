-- Evidence's hashes as bytes instead of hex text: 32 bytes a SHA-256 instead of 64 (issue 19,
-- lib/evidence/stored-hashes.ts). Each value becomes the bytes its hex spells, so every record
-- hashes and verifies as before. A value that is not lowercase hex (edited by hand) is kept as
-- its UTF-8 bytes: it reads back as other hex, and verification still reports that record.
ALTER TABLE "Evidence"
  ALTER COLUMN "prevHash" TYPE BYTEA USING (CASE WHEN "prevHash" ~ '^([0-9a-f]{2})*$' THEN decode("prevHash", 'hex') ELSE convert_to("prevHash", 'UTF8') END),
  ALTER COLUMN "hash" TYPE BYTEA USING (CASE WHEN "hash" ~ '^([0-9a-f]{2})*$' THEN decode("hash", 'hex') ELSE convert_to("hash", 'UTF8') END),
  ALTER COLUMN "contractHash" TYPE BYTEA USING (CASE WHEN "contractHash" ~ '^([0-9a-f]{2})*$' THEN decode("contractHash", 'hex') ELSE convert_to("contractHash", 'UTF8') END),
  ALTER COLUMN "argsHash" TYPE BYTEA USING (CASE WHEN "argsHash" ~ '^([0-9a-f]{2})*$' THEN decode("argsHash", 'hex') ELSE convert_to("argsHash", 'UTF8') END);
