import { db } from '../db';
import { ApiError } from '../api/errors';
import { checkPreCall } from '../validation/check-pre-call';
import { formatJsonPath } from '../validation/json-path';
import { REDACTED } from '../evidence/redact-arguments';
import { IMPACT_MAX_CALLS, IMPACT_WINDOW_DAYS } from './impact-window';
import { compileContract } from './compile-contract';

/**
 * Decision replay (after Styra's): before publishing, the draft's argument checks (input schema
 * and preconditions) run against the tenant's recent recorded validate/pre calls of the same
 * tool whose arguments were retained, and the preview says which outcomes would change.
 *
 * Only what the contract decides from the arguments is replayed. The caller's identity
 * (tenant, user, roles) is not recorded with the evidence and tokens are single-use, so scope,
 * role, confirmation, approval and duplicate checks are left out on both sides of the
 * comparison. Values stored redacted cannot be checked, so issues on them are ignored.
 */

const REPLAYED_CODES_EXCLUDED = new Set([
  'AXAG_TENANT_BOUNDARY',
  'AXAG_SCOPE_VIOLATION',
  'AXAG_ROLE_INSUFFICIENT',
  'AXAG_CONFIRMATION_MISSING',
  'AXAG_CONFIRMATION_INVALID',
  'AXAG_APPROVAL_MISSING',
  'AXAG_APPROVAL_INVALID',
  'AXAG_UNKNOWN_TOOL',
  'AXAG_VERSION_NOT_FOUND',
  'AXAG_APPROVAL_DENIED',
]);

export interface ImpactChange {
  evidenceId: string;
  callId: string;
  at: Date;
  before: string[];
  after: string[];
}

export interface ImpactPreview {
  tool: string;
  /** Recorded validate/pre calls of the tool with retained arguments, newest first, at most IMPACT_MAX_CALLS. */
  replayed: number;
  /** Calls of the tool in the window whose arguments were not retained, so could not be replayed. */
  notReplayable: number;
  changed: number;
  /** Calls the recorded contract passed on their arguments and the draft would refuse. */
  newlyRefused: number;
  /** Calls the recorded contract refused on their arguments and the draft would pass. */
  newlyPassing: number;
  /** Per error code: how many replayed calls gain it and lose it. */
  codes: { code: string; added: number; removed: number }[];
  /** Up to 50 example changes, newest first. */
  examples: ImpactChange[];
}

export async function previewContractImpact(options: { tenantId: string; document: unknown; sinceDays?: number }): Promise<ImpactPreview> {
  const compiled = compileContract(options.document);
  if (!compiled.ok) {
    throw new ApiError('contract_invalid', `The draft does not compile: ${compiled.problems[0]?.message ?? 'unknown problem'}`, { problems: compiled.problems });
  }
  const tool = compiled.contract.document.id;
  const since = new Date(Date.now() - (options.sinceDays ?? IMPACT_WINDOW_DAYS) * 24 * 3600 * 1000);
  const where = { tenantId: options.tenantId, tool, kind: 'pre', createdAt: { gte: since } };
  const [rows, notReplayable] = await Promise.all([
    db().evidence.findMany({
      where: { ...where, arguments: { not: null } },
      orderBy: { createdAt: 'desc' },
      take: IMPACT_MAX_CALLS,
      select: { id: true, callId: true, createdAt: true, arguments: true, errors: true },
    }),
    db().evidence.count({ where: { ...where, arguments: null } }),
  ]);

  const codeCounts = new Map<string, { added: number; removed: number }>();
  const bump = (code: string, key: 'added' | 'removed') => {
    const entry = codeCounts.get(code) ?? { added: 0, removed: 0 };
    entry[key] += 1;
    codeCounts.set(code, entry);
  };
  const examples: ImpactChange[] = [];
  let changed = 0;
  let newlyRefused = 0;
  let newlyPassing = 0;

  for (const row of rows) {
    let args: unknown;
    try {
      args = JSON.parse(row.arguments ?? 'null');
    } catch {
      continue;
    }
    const redacted = redactedPaths(args);
    const keep = (issue: { code: string; path?: string }) => !REPLAYED_CODES_EXCLUDED.has(issue.code) && !(issue.path && redacted.has(issue.path));
    const before = codeSet((JSON.parse(row.errors) as { code: string; path?: string }[]).filter(keep));
    const after = codeSet(checkPreCall({ contract: compiled.contract, arguments: args, context: {} }).errors.filter(keep));
    if (before.join(',') === after.join(',')) continue;
    changed += 1;
    if (before.length === 0) newlyRefused += 1;
    if (after.length === 0) newlyPassing += 1;
    for (const code of after) if (!before.includes(code)) bump(code, 'added');
    for (const code of before) if (!after.includes(code)) bump(code, 'removed');
    if (examples.length < 50) examples.push({ evidenceId: row.id, callId: row.callId, at: row.createdAt, before, after });
  }

  return {
    tool,
    replayed: rows.length,
    notReplayable,
    changed,
    newlyRefused,
    newlyPassing,
    codes: [...codeCounts.entries()].map(([code, c]) => ({ code, ...c })).sort((a, b) => b.added + b.removed - (a.added + a.removed) || a.code.localeCompare(b.code)),
    examples,
  };
}

function codeSet(issues: { code: string }[]): string[] {
  return [...new Set(issues.map((i) => i.code))].sort();
}

/** JSONPaths of the argument values stored as REDACTED. */
function redactedPaths(args: unknown): Set<string> {
  const found = new Set<string>();
  const walk = (node: unknown, path: (string | number)[], depth: number) => {
    if (depth > 64) return;
    if (node === REDACTED) found.add(formatJsonPath(path));
    else if (Array.isArray(node)) node.forEach((item, i) => walk(item, [...path, i], depth + 1));
    else if (node && typeof node === 'object') for (const [k, v] of Object.entries(node)) walk(v, [...path, k], depth + 1);
  };
  walk(args, [], 0);
  return found;
}
