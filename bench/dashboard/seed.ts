// Synthetic evidence for bench/dashboard/run.ts: a deterministic stream of calls (validate/pre,
// approvals, validate/post) in time order, handed over in chunks that bulk-writer.ts writes
// straight into the tables.
import { createHash, randomBytes } from 'node:crypto';
import { traceIdFor } from '../../lib/evidence/trace-id';
import { timeOrderedId } from '../../lib/evidence/time-ordered-id';

export interface SeedPlan {
  tenantId: string;
  /** The tenant's key for the evidence indexes (lib/evidence/tenant-key.ts). */
  tenantKey: number;
  /** Evidence rows to write for this tenant. */
  rows: number;
  /** The records span [end - days, end]. */
  end: Date;
  days: number;
  seed: number;
  apiKeyIds: string[];
  /** The keys of SEED_CONTRACT_HASHES in EvidenceContractHash (lib/evidence/stored-record.ts). */
  contractHashKeys: ReadonlyMap<string, number>;
}

export interface SeedFacts {
  evidence: number;
  violations: number;
  approvals: number;
  traces: number;
  /** Handy probes for the benchmark's queries. */
  sample: { callId: string; traceId: string; approvalTraceId: string | null; rareTool: string; rareKeyId: string; commonTool: string };
}

export type Row = Record<string, string | number | boolean | null | Date>;
/** Rows of the three tables, written together. */
export type SeedChunk = { evidence: Row[]; violations: Row[]; approvals: Row[] };

// Popularity falls off steeply, as in real tenants: a few tools and keys make most calls.
const contractHashOf = (tool: string) => createHash('sha256').update(tool).digest('hex');
/** The contract hashes the seeded records name, one per tool: their keys go in the plan. */
export const seedContractHashes = () => TOOLS.map(contractHashOf);
const TOOLS = Array.from({ length: 40 }, (_, i) => `svc${String(i % 8).padStart(2, '0')}.action_${String(i).padStart(2, '0')}`);
const CODES: [string, string, number][] = [
  ['AXAG_SCHEMA_TYPE', 'validation_error', 30],
  ['AXAG_REQUIRED_MISSING', 'validation_error', 22],
  ['AXAG_PATTERN_MISMATCH', 'validation_error', 14],
  ['AXAG_ENUM_MISMATCH', 'validation_error', 9],
  ['AXAG_SCOPE_MISMATCH', 'safety_error', 7],
  ['AXAG_PRECONDITION_FAILED', 'policy_error', 6],
  ['AXAG_ROLE_INSUFFICIENT', 'safety_error', 4],
  ['POLICY_DENIED', 'policy_error', 3],
  ['AXAG_CONFIRMATION_MISSING', 'safety_error', 2],
  ['AXAG_ADDITIONAL_PROPERTY', 'validation_error', 1.5],
  ['AXAG_CONTRACT_NOT_FOUND', 'validation_error', 1],
  ['AXAG_RANGE', 'validation_error', 0.5],
];
const CODE_WEIGHT = CODES.reduce((a, c) => a + c[2], 0);

/** mulberry32: a small, fast, seedable PRNG, so both databases get the same data. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Index into n items with a steep (Zipf-like) preference for the first ones. */
function skewed(random: () => number, n: number): number {
  return Math.min(n - 1, Math.floor(n * Math.pow(random(), 2.2)));
}

interface Pending {
  at: number;
  emit: (at: number) => void;
}

/** Generates the plan's records in time order, handing them to `sink` in chunks. */
export async function generate(plan: SeedPlan, sink: (chunk: SeedChunk) => Promise<void>): Promise<SeedFacts> {
  const random = prng(plan.seed);
  const hex = () => randomBytes(32).toString('hex');
  const contractHash = new Map(TOOLS.map((t) => [t, plan.contractHashKeys.get(contractHashOf(t)) ?? null]));
  const endMs = plan.end.getTime();
  const startMs = endMs - plan.days * 86_400_000;
  let evidence: Row[] = [];
  let violations: Row[] = [];
  let approvals: Row[] = [];
  let seq = 0;
  let prevHash = '0'.repeat(64);
  let written = 0;
  let violationCount = 0;
  let approvalCount = 0;
  let traces = 0;
  let approvalTraceId: string | null = null;
  const pending: Pending[] = [];
  const callsPerRow = 1 / 1.77;
  const spacing = (endMs - startMs) / (plan.rows * callsPerRow);

  const record = (
    at: number,
    fields: Omit<Row, 'id' | 'seq' | 'prevHash' | 'hash' | 'createdAt' | 'tenantId' | 'tenantKey'>,
    errors: [string, string][] = [],
  ) => {
    if (written >= plan.rows) return null;
    at = Math.floor(at);
    seq += 1;
    written += 1;
    const hash = hex();
    const id = timeOrderedId(at);
    const createdAt = new Date(at);
    const issues = errors.map(([code, type], i) => ({
      code,
      type,
      message: `${code.toLowerCase().replace(/_/g, ' ')} at $.args[${i}]`,
      path: `$.args[${i}]`,
    }));
    evidence.push({
      id,
      tenantId: plan.tenantId,
      tenantKey: plan.tenantKey,
      seq,
      prevHash,
      hash,
      createdAt,
      // As an agent's call without x-request-id stores it: its request id is the record's id (lib/evidence/stored-request-id.ts).
      requestId: '',
      actorUserId: null,
      contractHashKey: null,
      policyId: null,
      policyVersion: null,
      policyRule: null,
      policy: null,
      shadowDiffers: false,
      executionMs: null,
      errors: JSON.stringify(issues),
      warnings: '[]',
      ...fields,
    });
    prevHash = hash;
    for (const issue of issues) {
      violationCount += 1;
      violations.push({
        id: timeOrderedId(at),
        tenantId: plan.tenantId,
        evidenceId: id,
        code: issue.code,
        type: issue.type,
        tool: fields.tool as string,
        apiKeyId: fields.apiKeyId as string | null,
        path: issue.path,
        decision: fields.decision as string,
        createdAt,
      });
    }
    return id;
  };
  const flush = async (force: boolean) => {
    if (!force && evidence.length < 5000) return;
    await sink({ evidence, violations, approvals });
    evidence = [];
    violations = [];
    approvals = [];
  };
  const schedule = (at: number, emit: (at: number) => void) => {
    const item = { at, emit };
    let i = pending.length;
    while (i > 0 && (pending[i - 1] as Pending).at > at) i--;
    pending.splice(i, 0, item);
  };
  const pickCode = (): [string, string] => {
    let r = random() * CODE_WEIGHT;
    for (const [code, type, weight] of CODES) if ((r -= weight) <= 0) return [code, type];
    return [CODES[0]?.[0] ?? 'X', CODES[0]?.[1] ?? 'x'];
  };

  let t = startMs;
  let n = 0;
  while (written < plan.rows) {
    t = Math.floor(t + spacing * (0.5 + random()));
    while (pending.length > 0 && (pending[0] as Pending).at <= t) {
      const next = pending.shift() as Pending;
      next.emit(next.at);
    }
    if (t > endMs) t = endMs;
    n += 1;
    traces += 1;
    const keyId = plan.apiKeyIds[skewed(random, plan.apiKeyIds.length)] ?? null;
    const tool = TOOLS[skewed(random, TOOLS.length)] as string;
    const callId = `call-${plan.seed}-${n}`;
    const traceId = traceIdFor(plan.tenantId, callId);
    const common = { traceId, callId, apiKeyId: keyId, tool, contractVersion: `1.${n % 3}.0`, argsHash: hex() };
    const withContract = { ...common, contractHashKey: contractHash.get(tool) ?? null };
    const roll = random();
    const durationMs = 0.2 + random() * 3;
    // Three in ten tenants' calls go through a published policy; a few shadow versions disagree.
    const policy = random() < 0.3;
    const shadowDiffers = policy && random() < 0.02;
    const policyFields: Row = policy
      ? {
          policyId: 'default-guardrails',
          policyVersion: '1.4.0',
          policyRule: roll < 0.2 ? 'deny-external' : 'allow-read',
          policy: JSON.stringify({
            decision: roll < 0.2 ? 'deny' : 'allow',
            reason: null,
            decided_by: { policy_id: 'default-guardrails', version: '1.4.0', rule: 'allow-read' },
            evaluated: [],
            duration_ms: durationMs / 4,
            shadow: shadowDiffers
              ? [
                  {
                    kind: 'policy',
                    id: 'default-guardrails',
                    version: '1.5.0',
                    decision: 'deny',
                    rule: 'deny-bulk',
                    codes: ['POLICY_DENIED'],
                    differs: true,
                  },
                ]
              : [],
          }),
          shadowDiffers,
        }
      : {};
    if (roll < 0.2) {
      const errors = Array.from({ length: 1 + skewed(random, 3) }, pickCode);
      record(t, { kind: 'pre', ...withContract, decision: 'deny', valid: false, durationMs, ...policyFields }, errors);
    } else if (roll < 0.23) {
      record(t, { kind: 'pre', ...withContract, decision: 'require_approval', valid: false, durationMs, ...policyFields }, [
        ['AXAG_APPROVAL_MISSING', 'safety_error'],
      ]);
      approvalTraceId ??= traceId;
      const approvalId = timeOrderedId(t);
      const wait = 60_000 + random() * 1_800_000;
      const fate = random();
      const status = t + wait > endMs ? 'pending' : fate < 0.8 ? 'approved' : fate < 0.95 ? 'denied' : 'expired';
      const decidedAt = status === 'approved' || status === 'denied' ? new Date(t + wait) : null;
      approvalCount += 1;
      approvals.push({
        id: approvalId,
        tenantId: plan.tenantId,
        tool,
        contractVersion: common.contractVersion,
        argsHash: common.argsHash,
        callId,
        traceId,
        apiKeyId: keyId,
        approverRoles: 'approver',
        reason: `${tool} is marked approval_required`,
        status,
        createdAt: new Date(t),
        expiresAt: new Date(t + 3_600_000),
        decidedAt,
        decidedBy: decidedAt ? 'user:bench-approver' : null,
        sideEffectLevel: 'external',
      });
      if (decidedAt) {
        schedule(decidedAt.getTime(), (at) => {
          record(at, { kind: 'approval_decision', ...common, actorUserId: 'bench-approver', decision: status, valid: true, durationMs: 0 });
          if (status === 'approved') {
            schedule(at + 2000, (at2) => {
              record(at2, { kind: 'pre', ...withContract, decision: 'allow', valid: true, durationMs });
              schedule(at2 + 50 + random() * 3000, (at3) =>
                record(at3, {
                  kind: 'post',
                  ...withContract,
                  decision: 'allow',
                  valid: true,
                  durationMs: durationMs / 2,
                  executionMs: 50 + random() * 3000,
                }),
              );
            });
          }
        });
      }
    } else {
      record(t, { kind: 'pre', ...withContract, decision: 'allow', valid: true, durationMs, ...policyFields });
      if (random() < 0.9) {
        const executionMs = 5 + random() * random() * 3000;
        const failed = random() < 0.03;
        schedule(t + executionMs + 1, (at) =>
          record(
            at,
            { kind: 'post', ...withContract, decision: failed ? 'deny' : 'allow', valid: !failed, durationMs: durationMs / 2, executionMs },
            failed ? [['AXAG_OUTPUT_SCHEMA', 'validation_error']] : [],
          ),
        );
      }
    }
    await flush(false);
  }
  await flush(true);
  const rareKeyId = plan.apiKeyIds[plan.apiKeyIds.length - 1] as string;
  return {
    evidence: written,
    violations: violationCount,
    approvals: approvalCount,
    traces,
    sample: {
      callId: `call-${plan.seed}-${Math.floor(n / 2)}`,
      traceId: traceIdFor(plan.tenantId, `call-${plan.seed}-${Math.floor(n / 2)}`),
      approvalTraceId,
      rareTool: TOOLS[TOOLS.length - 1] as string,
      rareKeyId,
      commonTool: TOOLS[0] as string,
    },
  };
}
