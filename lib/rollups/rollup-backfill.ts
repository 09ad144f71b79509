import { POLICY_REFUSAL_CODES } from '../violations/violation-kinds';
import { DAY_S, HOUR_S, type RollupProvider } from './rollup-rows';

/**
 * The rollups recomputed from evidence and violations, as the migration that added them
 * filled them (prisma/<provider>/migrations/*_dashboard_rollups; rollup-backfill.int.test.ts
 * checks the files hold these statements). Also what bench/dashboard runs after loading rows
 * raw. Expects empty rollup tables.
 */
export function rollupBackfillSql(provider: RollupProvider, options: { oneTenant?: boolean } = {}): string[] {
  // With oneTenant, the statements take the tenant's id as their one parameter (rebuild-rollups.ts).
  const parameter = provider === 'postgresql' ? '$1' : '?';
  const only = (alias: string) => (options.oneTenant ? `WHERE ${alias}."tenantId" = ${parameter}\n` : '');
  // Evidence names its tenant by key, not id (lib/evidence/tenant-key.ts).
  const evidence = `"Evidence" e JOIN "TenantKey" k ON k."key" = e."tenantKey"\n${only('k')}`;
  const truncated = (column: string, span: number) => {
    if (provider === 'postgresql') return `date_trunc('${span === HOUR_S ? 'hour' : 'day'}', ${column})`;
    // Milliseconds since the epoch (lib/db/adapter.ts): the bucket's start by integer division.
    return `(${column} / ${span * 1000}) * ${span * 1000}`;
  };
  const policyCodes = POLICY_REFUSAL_CODES.map((c) => `'${c}'`).join(', ');
  const shadow = provider === 'postgresql' ? `e."shadowDiffers"` : `e."shadowDiffers" = 1`;
  const statements = [
    `INSERT INTO "EvidenceRollup" ("tenantId", "hour", "kind", "decision", "records", "shadowDiffers", "policyRefusals")
SELECT k."tenantId", ${truncated('e."createdAt"', HOUR_S)}, e."kind", e."decision", count(*),
  sum(CASE WHEN ${shadow} THEN 1 ELSE 0 END),
  sum(CASE WHEN e."decision" = 'deny' AND e."id" IN (SELECT "evidenceId" FROM "Violation" WHERE "decision" = 'deny' AND "code" IN (${policyCodes})) THEN 1 ELSE 0 END)
FROM ${evidence}GROUP BY 1, 2, 3, 4;`,
  ];
  for (const span of [HOUR_S, DAY_S])
    for (const [dimension, column, code] of [
      ['tool', `v."tool"`, `v."code"`],
      ['key', `coalesce(v."apiKeyId", '')`, `v."code"`],
      ['code', `''`, `v."code"`],
      ['tool_total', `v."tool"`, `''`],
      ['key_total', `coalesce(v."apiKeyId", '')`, `''`],
    ] as const)
      statements.push(`INSERT INTO "ViolationRollup" ("tenantId", "span", "dimension", "bucket", "code", "decision", "value", "count")
SELECT v."tenantId", ${span}, '${dimension}', ${truncated('v."createdAt"', span)}, ${code}, v."decision", ${column}, count(*)
FROM "Violation" v
${only('v')}GROUP BY 1, 2, 3, 4, 5, 6, 7;`);
  return statements;
}
