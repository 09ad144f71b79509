import { z } from 'zod';
import { wellFormed } from '../evidence/chain-records';
import type { FirstRecordId } from '../evidence/first-record-id';
import { db } from '../db';
import { plainObject } from '../json';
import { CallContextSchema, McpServerNameSchema } from './call-context';
import type { Caller } from '../auth/caller';
import { hashCanonical } from '../contracts/canonical-json';
import { resolveContract } from '../contracts/resolve-contract';
import { recordEvidence } from '../evidence/record-evidence';
import { redactArguments } from '../evidence/redact-arguments';
import { redactIssueValues } from '../evidence/redact-issues';
import { retainedPayloadJson } from '../retention/retained-payload';
import { getRuntimeSettings, mergeSensitivePaths } from '../tenants/tenant-settings';
import { traceIdFor } from '../evidence/trace-id';
import { byTenantKey } from '../evidence/tenant-key';
import { sql } from '../db/sql';
import { checkPostCall } from './check-post-call';
import { unresolvedContractIssue } from './unresolved-contract-issue';
import { buildValidationResponse, type ValidationResponse } from './validation-response';

export const PostCallRequestSchema = z
  .object({
    tool: z.string().min(1).max(128),
    version: z
      .string()
      .min(1)
      .max(64)
      .optional()
      .describe('Default: the version the pre call of this call_id was checked against, else the latest.'),
    call_id: z.string().min(1).max(128),
    arguments: plainObject('The arguments the tool ran with.'),
    context: CallContextSchema.default({}),
    result: z.unknown().optional().describe('What the tool returned, when it succeeded.'),
    error: z.unknown().optional().describe('The error the tool returned, when it failed.'),
    side_effects: z
      .array(z.object({ id: z.string().min(1).max(200) }).passthrough())
      .max(200)
      .optional()
      .describe('The side effects that actually happened, by the ids the contract declares.'),
    execution_ms: z
      .number()
      .min(0)
      .max(86_400_000)
      .optional()
      .describe("How long the tool itself ran, in milliseconds, as the agent measured it; the trace page shows it as the tool's own span."),
    mcp_server: McpServerNameSchema.optional().describe('The MCP server the call went through; recorded with the evidence.'),
  })
  .strict()
  .refine((body) => (body.result === undefined) !== (body.error === undefined), {
    message: 'send exactly one of "result" or "error"',
    path: ['result'],
  });

export type PostCallRequest = z.infer<typeof PostCallRequestSchema>;

/** validate/post: the tool's result (or error) against the contract, recorded in the call's trace. */
export async function validatePostCall(options: {
  caller: Extract<Caller, { kind: 'api_key' }>;
  request: PostCallRequest;
  requestId: string;
  /** The request's, when Toolgate made its id: its first record takes that id (lib/evidence/first-record-id.ts). */
  firstRecordId?: FirstRecordId;
  traceparent: string | null;
}): Promise<ValidationResponse> {
  const started = performance.now();
  const { caller, request } = options;
  const tenantId = caller.tenantId;
  const traceId = traceIdFor(tenantId, request.call_id);
  const argsHash = hashCanonical(request.arguments);
  let version = request.version;
  if (!version) {
    // The call's newest pre of this tool: the end of the trace's range of the (tenantKey, traceId,
    // seq) index, however many records the trace holds. The tool as an expression: without
    // statistics SQLite would as soon walk (tenantKey, tool, seq), every call of the tool. The
    // tool as the pre's record stored it (a NUL, which PostgreSQL cannot take, as U+FFFD).
    const [latest] = await db().$queryRaw<{ contractVersion: string | null }[]>(sql`SELECT "contractVersion" FROM "Evidence"
      WHERE ${byTenantKey(tenantId)} AND "traceId" = ${traceId} AND "kind" = 'pre'
        AND ("tool" || '') = ${wellFormed(request.tool)}
      ORDER BY "seq" DESC LIMIT 1`);
    version = latest?.contractVersion ?? undefined;
  }
  const base = {
    tenantId,
    kind: 'post' as const,
    requestId: options.requestId,
    traceId,
    callId: request.call_id,
    w3cTraceparent: options.traceparent,
    apiKeyId: caller.apiKeyId,
    tool: request.tool,
    argsHash,
    executionMs: request.execution_ms ?? null,
    mcpServer: request.mcp_server ?? null,
  };

  const resolved = await resolveContract({ tenantId, tool: request.tool, version });
  if (!resolved.found) {
    const issue = unresolvedContractIssue(resolved.reason, request.tool, version);
    const evidence = await recordEvidence({
      ...base,
      recordId: options.firstRecordId?.take(),
      decision: 'deny',
      valid: false,
      errors: [issue],
      warnings: [],
      durationMs: performance.now() - started,
    });
    return buildValidationResponse({
      tool: request.tool,
      callId: request.call_id,
      traceId,
      evidenceId: evidence.id,
      errors: [issue],
      warnings: [],
      decision: 'deny',
      phase: 'post',
    });
  }

  const { compiled } = resolved.contract;
  const { errors, warnings } = checkPostCall({
    contract: compiled,
    arguments: request.arguments,
    context: request.context,
    ...(request.result !== undefined ? { result: request.result } : { error: request.error }),
    side_effects: request.side_effects,
  });
  const decision = errors.length === 0 ? 'allow' : 'deny';
  const settings = await getRuntimeSettings(tenantId);
  const sensitive = mergeSensitivePaths(compiled.document.sensitive, settings.sensitivePaths);
  redactIssueValues(errors, sensitive);
  let storedArguments: string | null = null;
  let storedPayload: string | null = null;
  if (settings.storeRawArguments) {
    storedArguments = redactArguments(request.arguments, sensitive);
    const context = Object.keys(request.context).length > 0 ? request.context : undefined;
    storedPayload = retainedPayloadJson(
      request.result !== undefined ? { context, result: request.result } : { context, error: request.error },
      sensitive,
    );
  }
  const evidence = await recordEvidence({
    ...base,
    recordId: options.firstRecordId?.take(),
    contractVersion: resolved.contract.version,
    contractHash: resolved.contract.contentHash,
    arguments: storedArguments,
    payload: storedPayload,
    decision,
    valid: errors.length === 0,
    errors,
    warnings,
    durationMs: performance.now() - started,
  });
  return buildValidationResponse({
    tool: request.tool,
    version: resolved.contract.version,
    contractHash: resolved.contract.contentHash,
    callId: request.call_id,
    traceId,
    evidenceId: evidence.id,
    errors,
    warnings,
    decision,
    phase: 'post',
  });
}
