import { db } from '../db';
import { byTenantKey } from '../evidence/tenant-key';
import { num, sql, toDate } from '../db/sql';
import { seqsAt } from '../evidence/seq-at';
import { AppError } from '../errors';
import { checkPreCall, evaluateConditions } from '../validation/check-pre-call';
import { formatJsonPath } from '../validation/json-path';
import { REDACTED } from '../evidence/redact-arguments';
import { parseRetainedPayload } from '../retention/retained-payload';
import type { CallContext } from '../validation/check-pre-call';
import { IMPACT_MAX_CALLS, IMPACT_WINDOW_DAYS } from './impact-window';
import { compileContract } from './compile-contract';
import { createCostMeter, REPLAY_COST_LIMIT, replayCallMeter } from './condition-cost';
import { timeSlices } from '../jobs/time-slice';

/**
 * Decision replay (after Styra's): before publishing, the draft's own checks (input schema,
 * preconditions, tenant and user scope, required roles) run against the tenant's recent
 * recorded validate/pre calls of the same tool, with the arguments and the context each call
 * was recorded with, and the preview says which outcomes would change.
 *
 * Only what the contract decides from the arguments and the context is compared. Tokens are
 * single-use and policies are not the contract's, so confirmation, approval, duplicate and
 * policy codes are left out on both sides. A call is replayed only when both its arguments and
 * its context were retained (argument retention on): replaying preconditions with a made-up
 * context would report changes where there are none. Values stored redacted cannot be
 * checked: issues on redacted arguments are ignored, and a call whose context holds a redacted
 * value is not replayed. A call refused for a number a double cannot hold is refused for it
 * again, whatever the draft says: its stored arguments keep the token the agent sent, but
 * parsed they would be a rounded value, so it is not checked against the draft.
 */

/** A call refused for a number a double cannot hold (docs/numbers.md). */
const NUMBER_UNREPRESENTABLE = 'AXAG_NUMBER_UNREPRESENTABLE';

const REPLAYED_CODES_EXCLUDED = new Set([
  'AXAG_CONFIRMATION_MISSING',
  'AXAG_CONFIRMATION_INVALID',
  'AXAG_APPROVAL_MISSING',
  'AXAG_APPROVAL_INVALID',
  'AXAG_UNKNOWN_TOOL',
  'AXAG_VERSION_NOT_FOUND',
  'AXAG_APPROVAL_DENIED',
  'AXAG_TOOL_NOT_ALLOWED',
  'AXAG_SIDE_EFFECT_CEILING',
  'AXAG_ARGUMENT_NOT_ALLOWED',
  'AXAG_POLICY_DENIED',
  'AXAG_POLICY_EVALUATION_FAILED',
  'AXAG_POLICY_TRANSFORM_INVALID',
  'AXAG_ESCALATION_REQUIRED',
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
  /** Recorded validate/pre calls of the tool with retained arguments and context, of the newest IMPACT_MAX_CALLS with arguments. */
  replayed: number;
  /** Calls of the tool in the window that could not be replayed: withoutArguments + withoutContext. */
  notReplayable: number;
  /** Recorded without their arguments (retention off, or purged). */
  withoutArguments: number;
  /** Recorded with arguments but not with their context (written before contexts were kept), or with a redacted context. */
  withoutContext: number;
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
    throw new AppError('contract_invalid', `The draft does not compile: ${compiled.problems[0]?.message ?? 'unknown problem'}`, {
      problems: compiled.problems,
    });
  }
  const tool = compiled.contract.document.id;
  const since = new Date(Date.now() - (options.sinceDays ?? IMPACT_WINDOW_DAYS) * 24 * 3600 * 1000);
  // The window as a seq range of (tenantKey, tool, seq): there is no index on createdAt (seq-at.ts).
  const [fromSeq] = await seqsAt(options.tenantId, [since]);
  const where = sql`${byTenantKey(options.tenantId)} AND "tool" = ${tool} AND "kind" = 'pre' AND "seq" >= ${fromSeq ?? 0} AND "createdAt" >= ${since}`;
  const [found, [counted]] = await Promise.all([
    db().$queryRaw<Record<string, unknown>[]>(sql`SELECT "id", "callId", "createdAt", "arguments", "payload", "errors" FROM "Evidence"
      WHERE ${where} AND "arguments" IS NOT NULL ORDER BY "seq" DESC LIMIT ${IMPACT_MAX_CALLS}`),
    db().$queryRaw<{ n: unknown }[]>(sql`SELECT count(*) AS "n" FROM "Evidence" WHERE ${where} AND "arguments" IS NULL`),
  ]);
  const rows = found.map((r) => ({
    id: String(r.id),
    callId: String(r.callId),
    createdAt: toDate(r.createdAt),
    arguments: (r.arguments as string | null) ?? null,
    payload: (r.payload as string | null) ?? null,
    errors: String(r.errors),
  }));
  const notReplayable = num(counted?.n);
  let withoutContext = 0;
  let replayed = 0;

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
  // One budget for every call the draft's conditions are replayed on (up to 1,000; viewers may
  // run a preview), as the policy preview has: a budget per call let one costly precondition
  // hold the server's one thread for a second per 30 recorded calls. Each call is evaluated
  // within it on the gate's own budget for a call (replayCallMeter).
  const conditionBudget = createCostMeter(REPLAY_COST_LIMIT);
  // The draft's schema checks have a budget of their own over the calls (schema-cost.ts): spent
  // conditions must not show the later calls as refused by the schema, nor the reverse.
  const schemaBudget = createCostMeter(REPLAY_COST_LIMIT);
  // Seconds of replay on the gate's thread: other calls are answered between replayed ones.
  const pause = timeSlices();

  for (const row of rows) {
    await pause();
    let args: unknown;
    try {
      args = JSON.parse(row.arguments ?? 'null');
    } catch {
      continue;
    }
    const redacted = redactedPaths(args);
    const keep = (issue: { code: string; path?: string }) =>
      !REPLAYED_CODES_EXCLUDED.has(issue.code) && !(issue.path && redacted.has(issue.path));
    const recorded = JSON.parse(row.errors) as { code: string; path?: string }[];
    let after: string[];
    if (recorded.some((issue) => issue.code === NUMBER_UNREPRESENTABLE)) {
      // The agent sent a number a double cannot hold: validate/pre refuses such a call for it and
      // checks nothing else, whatever the contract and the context, so that is its replay. The
      // parsed arguments hold rounded values the agent never sent (Infinity, 9007199254740992):
      // checking those would report the call as newly passing a draft that changes nothing.
      after = [NUMBER_UNREPRESENTABLE];
    } else {
      const context = recordedContext(row.payload);
      if (!context) {
        withoutContext += 1;
        continue;
      }
      const conditions = replayCallMeter(conditionBudget);
      const schema = replayCallMeter(schemaBudget);
      const replayedIssues = checkPreCall({
        contract: compiled.contract,
        arguments: args,
        context,
        meter: conditions.meter,
        schemaMeter: schema.meter,
      }).errors;
      // checkPreCall skips the preconditions on invalid input; input "invalid" only where values are
      // stored redacted was valid when recorded, so the preconditions still apply.
      const inputIssues = compiled.contract.checkInput(args, schema.meter);
      if (inputIssues.length > 0 && inputIssues.every((issue) => redacted.has(issue.path))) {
        replayedIssues.push(
          ...evaluateConditions(compiled.contract.preconditions, { args, context }, 'AXAG_PRECONDITION_FAILED', tool, conditions.meter),
        );
      }
      conditions.settle();
      schema.settle();
      after = codeSet(replayedIssues.filter(keep));
    }
    replayed += 1;
    const before = codeSet(recorded.filter(keep));
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
    replayed,
    notReplayable: notReplayable + withoutContext,
    withoutArguments: notReplayable,
    withoutContext,
    changed,
    newlyRefused,
    newlyPassing,
    codes: [...codeCounts.entries()]
      .map(([code, c]) => ({ code, ...c }))
      .sort((a, b) => b.added + b.removed - (a.added + a.removed) || a.code.localeCompare(b.code)),
    examples,
  };
}

function codeSet(issues: { code: string }[]): string[] {
  return [...new Set(issues.map((i) => i.code))].sort();
}

/** The context a call was recorded with, or null when it was not recorded whole. */
export function recordedContext(payloadText: string | null): CallContext | null {
  const context = parseRetainedPayload(payloadText)?.context;
  if (!context || typeof context !== 'object' || Array.isArray(context)) return null;
  if (redactedPaths(context).size > 0) return null;
  return context as CallContext;
}

/** JSONPaths of the argument values stored as REDACTED. */
export function redactedPaths(args: unknown): Set<string> {
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
